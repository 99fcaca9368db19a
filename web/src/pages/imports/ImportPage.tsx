// The CSV import wizard: upload (detected encoding, delimiter, sample rows), map columns (suggested from
// the headers, custom fields and tags included), choose the list and what happens to existing contacts,
// then watch the import's counters and row errors until it is done.
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { SKIP, suggestTarget } from './mapping';

type Upload = Awaited<ReturnType<typeof uploadCsv>>;

async function uploadCsv(file: File) {
  const form = new FormData();
  form.append('file', file);
  return call(
    api.POST('/leads/api/file-imports/upload-csv', { body: {} as never, bodySerializer: () => form }),
  );
}

export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<Upload>();
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [listUuid, setListUuid] = useState<string | null>(null);
  const [updateExisting, setUpdateExisting] = useState(true);
  const [started, setStarted] = useState(false);

  const targets = useQuery({
    queryKey: ['import-targets'],
    queryFn: () => call(api.GET('/leads/api/file-imports/targets', { params: { query: { type: 'leads' } } })),
  });
  const customFields = useQuery({
    queryKey: ['custom-fields', 'lead'],
    queryFn: () => call(api.GET('/leads/api/custom-fields', { params: { query: { limit: 1000 } } })),
  });
  const lists = useQuery({
    queryKey: ['lists', 'all'],
    queryFn: () => call(api.GET('/leads/api/lists', { params: { query: { limit: 1000 } } })),
  });
  const customNames = useMemo(
    () => (customFields.data?.data ?? []).filter((f) => f.object !== 'company').map((f) => f.name),
    [customFields.data],
  );
  const options = useMemo(
    () => [
      { group: 'Skip', items: [{ value: SKIP, label: 'Do not import' }] },
      {
        group: 'Contact fields',
        items: (targets.data?.data ?? []).map((t) => ({ value: t.name, label: t.name })),
      },
      { group: 'Custom fields', items: customNames.map((n) => ({ value: `custom_fields.${n}`, label: n })) },
    ],
    [targets.data, customNames],
  );

  const send = useMutation({
    mutationFn: (chosen: File) => uploadCsv(chosen),
    onSuccess: (result) => {
      setUpload(result);
      const names = (targets.data?.data ?? []).map((t) => t.name);
      setMapping(Object.fromEntries(result.headers.map((h) => [h, suggestTarget(h, names, customNames)])));
    },
  });
  const start = useMutation({
    mutationFn: () =>
      call(
        api.POST('/leads/api/file-imports/{uuid}/import-leads', {
          params: { path: { uuid: upload?.uuid ?? '' } },
          body: {
            columns: (upload?.headers ?? []).map((h) => ({
              source: h,
              target: mapping[h] === SKIP ? null : (mapping[h] ?? null),
            })),
            ...(listUuid ? { list_uuid: listUuid } : {}),
            update_if_exists: updateExisting,
          },
        }),
      ),
    onSuccess: () => setStarted(true),
  });
  const queryClient = useQueryClient();
  const progress = useQuery({
    queryKey: ['file-import', upload?.uuid],
    queryFn: async () => {
      const state = await call(
        api.GET('/leads/api/file-imports/{uuid}', { params: { path: { uuid: upload?.uuid ?? '' } } }),
      );
      // New contacts: what the contacts table cached is out of date.
      if (state.status === 'done') void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      return state;
    },
    enabled: started && upload !== undefined,
    refetchInterval: (query) => (['done', 'failed'].includes(query.state.data?.status ?? '') ? false : 1000),
  });

  const step = started ? 2 : upload ? 1 : 0;
  const state = progress.data;
  const percent =
    state && state.total_rows > 0 ? Math.round((100 * state.processed_rows) / state.total_rows) : 0;

  return (
    <Stack>
      <Title order={1} size="h2">
        Import contacts from CSV
      </Title>
      <Stepper active={step} allowNextStepsSelect={false}>
        <Stepper.Step label="Upload" description="Choose a CSV file">
          <Stack maw={520}>
            <FileInput
              label="CSV file"
              placeholder="Choose a file"
              accept=".csv,text/csv"
              value={file}
              onChange={setFile}
              clearable
            />
            {send.error && (
              <Alert color="red" role="alert">
                {messageOf(send.error)}
              </Alert>
            )}
            <Group>
              <Button disabled={!file} loading={send.isPending} onClick={() => file && send.mutate(file)}>
                Upload
              </Button>
            </Group>
          </Stack>
        </Stepper.Step>
        <Stepper.Step label="Map columns" description="Choose what each column fills">
          {upload && (
            <Stack>
              <Group gap="xs">
                <Badge variant="light">{upload.total_rows} rows</Badge>
                <Badge variant="light">encoding {upload.encoding}</Badge>
                <Badge variant="light">delimiter {upload.delimiter}</Badge>
              </Group>
              <Table aria-label="Column mapping">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Column</Table.Th>
                    <Table.Th>Sample values</Table.Th>
                    <Table.Th>Imports into</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {upload.headers.map((header) => (
                    <Table.Tr key={header}>
                      <Table.Td>{header}</Table.Td>
                      <Table.Td>
                        <Text size="sm" truncate maw={320}>
                          {upload.sample_rows
                            .slice(0, 3)
                            .map((row) => row[header] ?? '')
                            .join(' · ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Select
                          aria-label={`Target of ${header}`}
                          data={options}
                          value={mapping[header] ?? SKIP}
                          searchable
                          allowDeselect={false}
                          onChange={(value) => setMapping({ ...mapping, [header]: value ?? SKIP })}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
                <Select
                  label="Add to list"
                  description="Leave empty for a new list named after the file"
                  clearable
                  data={(lists.data?.data ?? []).map((l) => ({ value: l.uuid, label: l.name }))}
                  value={listUuid}
                  onChange={setListUuid}
                />
                <Checkbox
                  mt="lg"
                  label="Update contacts that already exist (otherwise they count as duplicates)"
                  checked={updateExisting}
                  onChange={(e) => setUpdateExisting(e.currentTarget.checked)}
                />
              </SimpleGrid>
              {start.error && (
                <Alert color="red" role="alert">
                  {messageOf(start.error)}
                </Alert>
              )}
              <Group>
                <Button variant="default" onClick={() => setUpload(undefined)}>
                  Back
                </Button>
                <Button loading={start.isPending} onClick={() => start.mutate()}>
                  Start import
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>
        <Stepper.Step label="Import" description="Progress and row errors">
          {state && (
            <Stack>
              <Text aria-live="polite">
                {state.status === 'done'
                  ? 'Import finished.'
                  : state.status === 'failed'
                    ? `Import failed: ${state.error ?? ''}`
                    : `Importing… ${state.processed_rows} of ${state.total_rows} rows`}
              </Text>
              <Progress value={percent} aria-label="Import progress" />
              <Group gap="xs">
                <Badge color="green">{state.created_count} created</Badge>
                <Badge color="blue">{state.updated_count} updated</Badge>
                <Badge color="gray">{state.duplicate_count} duplicates</Badge>
                <Badge color="dark">{state.blacklisted_count} blacklisted</Badge>
                <Badge color="red">{state.error_count} errors</Badge>
              </Group>
              {state.warnings.map((warning) => (
                <Alert key={warning} color="yellow">
                  {warning}
                </Alert>
              ))}
              {state.errors.length > 0 && (
                <Table aria-label="Row errors">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Row</Table.Th>
                      <Table.Th>Why it was not imported</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {state.errors.map((e) => (
                      <Table.Tr key={e.row}>
                        <Table.Td>{e.row}</Table.Td>
                        <Table.Td>{e.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {state.status === 'done' && (
                <Group>
                  <Button component={Link} to="/contacts">
                    See the contacts
                  </Button>
                </Group>
              )}
            </Stack>
          )}
        </Stepper.Step>
      </Stepper>
    </Stack>
  );
}
