import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call } from '../../api';
import { useLists } from '../../ui/useCatalogs';

const FIELDS = [
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'email', label: 'E-mail' },
  { key: 'company_name', label: 'Company' },
  { key: 'position', label: 'Position' },
  { key: 'linkedin_id', label: 'LinkedIn profile URL' },
] as const;
type Field = (typeof FIELDS)[number]['key'];

export function NewContactButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Partial<Record<Field, string>>>({});
  const [listUuid, setListUuid] = useState<string | null>(null);
  const lists = useLists(opened);
  const create = useMutation({
    mutationFn: () => {
      const lead = Object.fromEntries(Object.entries(values).filter(([, v]) => v?.trim()));
      return call(api.POST('/leads/api/leads', { body: { list_uuid: listUuid ?? '', leads: [lead] } }));
    },
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Contact created.' });
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      setValues({});
      close();
    },
  });
  const fieldError = (field: string) => {
    const error = create.error;
    if (!(error instanceof ApiError)) return undefined;
    const entry = Object.entries(error.fields).find(([path]) => path === field || path.endsWith(`.${field}`));
    return entry?.[1].join(' ');
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <>
      <Button
        onClick={() => {
          // Lists may have been made elsewhere since the page loaded.
          void queryClient.invalidateQueries({ queryKey: ['lists'] });
          open();
        }}
      >
        New contact
      </Button>
      <Modal opened={opened} onClose={close} title="New contact">
        <form onSubmit={submit}>
          <Stack>
            {create.error &&
              !(create.error instanceof ApiError && Object.keys(create.error.fields).length > 0) && (
                <Alert color="red" role="alert">
                  {create.error.message}
                </Alert>
              )}
            <Select
              label="List"
              required
              placeholder={lists.lists.length === 0 ? 'Create a list in Settings first' : 'Choose a list'}
              data={lists.lists.map((l) => ({ value: l.uuid, label: l.name }))}
              value={listUuid}
              onChange={setListUuid}
              error={fieldError('list_uuid')}
              searchable
            />
            {FIELDS.map((field) => (
              <TextInput
                key={field.key}
                label={field.label}
                value={values[field.key] ?? ''}
                error={fieldError(field.key)}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [field.key]: value }));
                }}
              />
            ))}
            {create.error instanceof ApiError && Object.keys(create.error.fields).length > 0 && (
              <Alert color="red" role="alert">
                {create.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create contact
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
