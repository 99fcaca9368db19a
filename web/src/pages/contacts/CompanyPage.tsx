// A company: its fields edited in place, stage, tags and custom fields, its contacts, notes and the
// timeline of the company and its contacts.
import { Alert, Anchor, Grid, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api';
import { CrmFields } from './CrmFields';
import { type Contact, contactName } from './contact';
import { Notes } from './Notes';
import { RecordDetails, RecordSection } from './RecordDetails';
import { Timeline } from './Timeline';

const FIELDS = [
  { key: 'name', label: 'Name' },
  { key: 'domain', label: 'Domain' },
  { key: 'website', label: 'Website' },
  { key: 'linkedin', label: 'LinkedIn page' },
  { key: 'industry', label: 'Industry' },
  { key: 'employees_range', label: 'Employees' },
  { key: 'phone', label: 'Phone' },
  { key: 'hq_raw_address', label: 'Headquarters' },
] as const;

export function CompanyPage() {
  const { uuid } = useParams({ strict: false }) as { uuid: string };
  const queryClient = useQueryClient();
  const key = ['company', uuid];
  const company = useQuery({
    queryKey: key,
    queryFn: () => call(api.GET('/leads/api/companies/{uuid}', { params: { path: { uuid } } })),
  });
  const people = useQuery({
    queryKey: ['contacts', 'of-company', uuid],
    queryFn: () =>
      call(
        api.POST('/leads/api/leads/search', { body: { limit: 100, filter: { company_uuid: uuid } } }),
      ) as Promise<{
        data: Contact[];
        total: number;
      }>,
  });
  const update = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      call(api.PUT('/leads/api/companies/{uuid}', { params: { path: { uuid } }, body: body as never })),
    onSuccess: (updated) => {
      queryClient.setQueryData(key, updated);
      void queryClient.invalidateQueries({ queryKey: ['activities'] });
      void queryClient.invalidateQueries({ queryKey: ['tags'] });
    },
  });
  const save = (body: Record<string, unknown>) => update.mutateAsync(body);

  if (company.isError) {
    return (
      <Alert color="red" role="alert" title="This company cannot be shown">
        {company.error.message}
      </Alert>
    );
  }
  const c = company.data as (Record<string, unknown> & { name: string | null; tags: string[] }) | undefined;
  if (!c) return <Text>Loading…</Text>;

  return (
    <Stack>
      <Title order={1} size="h2">
        {c.name ?? (c.domain as string) ?? 'Company'}
      </Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <RecordDetails fields={FIELDS} record={c} onSave={save} />
            <RecordSection title={`Contacts (${people.data?.total ?? 0})`} label="Contacts">
              {people.data?.total === 0 ? (
                <Text c="dimmed">No contact works here yet. Set a contact’s company to link it.</Text>
              ) : (
                <Table aria-label="Contacts of the company">
                  <Table.Tbody>
                    {people.data?.data.map((p) => (
                      <Table.Tr key={p.uuid}>
                        <Table.Td>
                          <Anchor
                            renderRoot={(props) => (
                              <Link {...props} to="/contacts/$uuid" params={{ uuid: p.uuid }} />
                            )}
                          >
                            {contactName(p)}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{p.position ?? ''}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </RecordSection>
            <RecordSection title="Timeline">
              <Timeline filter={{ company_uuid: uuid }} />
            </RecordSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Paper withBorder p="md" component="section" aria-label="Pipeline">
              <CrmFields
                object="company"
                tags={c.tags ?? []}
                stageUuid={(c.pipeline_stage_uuid as string | null) ?? null}
                customFields={(c.custom_fields as Record<string, unknown>) ?? {}}
                onSave={save}
              />
            </Paper>
            <RecordSection title="Notes">
              <Notes object="company" uuid={uuid} />
            </RecordSection>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
