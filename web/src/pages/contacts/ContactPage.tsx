// A contact: every field edited in place, list, stage, tags and custom fields, the flows it is in, notes
// and its timeline.
import { Alert, Anchor, Grid, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { fieldMessage } from '../../ui/field-error';
import { useLists } from '../../ui/useCatalogs';
import { ContactFlows } from './ContactFlows';
import { CrmFields } from './CrmFields';
import { type Contact, contactName } from './contact';
import { Notes } from './Notes';
import { RecordDetails, RecordSection } from './RecordDetails';
import { Timeline } from './Timeline';

const FIELDS = [
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'position', label: 'Position' },
  { key: 'company_name', label: 'Company' },
  { key: 'work_email', label: 'Work e-mail' },
  { key: 'personal_email', label: 'Personal e-mail' },
  { key: 'work_phone_number', label: 'Work phone' },
  { key: 'personal_phone_number', label: 'Personal phone' },
  { key: 'linkedin', label: 'LinkedIn' },
  { key: 'twitter', label: 'Twitter / X' },
  { key: 'raw_address', label: 'Location' },
  { key: 'timezone', label: 'Time zone' },
  { key: 'headline', label: 'Headline' },
] as const;

export function ContactPage() {
  const { uuid } = useParams({ strict: false }) as { uuid: string };
  const queryClient = useQueryClient();
  const lists = useLists();
  const [listError, setListError] = useState<string>();
  const key = ['contact', uuid];
  const contact = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/leads/api/leads/{uuid}', {
          params: { path: { uuid }, query: { disable_aggregation: true } },
        }),
      ),
  });
  const update = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      call(api.PUT('/leads/api/leads/{uuid}', { params: { path: { uuid } }, body: body as never })),
    onSuccess: (updated) => {
      queryClient.setQueryData(key, updated);
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      void queryClient.invalidateQueries({ queryKey: ['activities'] });
      void queryClient.invalidateQueries({ queryKey: ['tags'] });
    },
  });
  const save = (body: Record<string, unknown>) => update.mutateAsync(body);

  if (contact.isError) {
    return (
      <Alert color="red" role="alert" title="This contact cannot be shown">
        {contact.error.message}
      </Alert>
    );
  }
  const c = contact.data as (Contact & Record<string, unknown>) | undefined;
  if (!c) return <Text>Loading…</Text>;
  const name = contactName(c);

  return (
    <Stack>
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={1} size="h2">
            {name}
          </Title>
          <Text c="dimmed">
            {c.position ?? ''}
            {c.company_name ? ' at ' : ''}
            {c.company_uuid ? (
              <Anchor
                underline="always"
                renderRoot={(props) => (
                  <Link {...props} to="/companies/$uuid" params={{ uuid: c.company_uuid }} />
                )}
              >
                {c.company_name ?? 'the company'}
              </Anchor>
            ) : (
              (c.company_name ?? '')
            )}
          </Text>
        </Stack>
        <Anchor component={Link} to="/contacts">
          All contacts
        </Anchor>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <RecordDetails fields={FIELDS} record={c} onSave={save} />
            <RecordSection title="Timeline">
              <Timeline filter={{ lead_uuid: uuid }} />
            </RecordSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Paper withBorder p="md" component="section" aria-label="Pipeline">
              <Stack gap="sm">
                <Select
                  label="List"
                  data={lists.lists.map((l) => ({ value: l.uuid, label: l.name }))}
                  value={c.list_uuid as string}
                  onChange={(value) =>
                    value &&
                    save({ list_uuid: value }).then(
                      () => setListError(undefined),
                      (e) => setListError(fieldMessage(e, 'list_uuid') ?? messageOf(e)),
                    )
                  }
                  error={listError}
                  allowDeselect={false}
                  searchable
                />
                <CrmFields
                  object="lead"
                  tags={c.tags ?? []}
                  stageUuid={(c.pipeline_stage_uuid as string | null) ?? null}
                  customFields={(c.custom_fields as Record<string, unknown>) ?? {}}
                  onSave={save}
                />
              </Stack>
            </Paper>
            <RecordSection title="Flows">
              <ContactFlows leadUuid={uuid} name={name} />
            </RecordSection>
            <RecordSection title="Notes">
              <Notes object="lead" uuid={uuid} />
            </RecordSection>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
