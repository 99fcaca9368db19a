// "New company": a name, a website and a LinkedIn page posted to POST /leads/api/companies (which updates a
// matching company instead of duplicating it), then the company's page opens.
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api';
import { fieldMessage } from '../../ui/field-error';

const FIELDS = [
  { key: 'name', label: 'Name' },
  { key: 'website', label: 'Website' },
  { key: 'linkedin', label: 'LinkedIn page URL' },
] as const;
type Field = (typeof FIELDS)[number]['key'];

export function NewCompanyButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState<Partial<Record<Field, string>>>({});
  const create = useMutation({
    mutationFn: () => {
      const company = Object.fromEntries(Object.entries(values).filter(([, v]) => v?.trim()));
      return call(api.POST('/leads/api/companies', { body: { companies: [company] } }));
    },
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ['companies'] });
      setValues({});
      close();
      const uuid = (created as { uuid: string }[])[0]?.uuid;
      if (uuid) void navigate({ to: '/companies/$uuid', params: { uuid } });
    },
  });
  const named = FIELDS.some((f) => fieldMessage(create.error, f.key));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <>
      <Button onClick={open}>New company</Button>
      <Modal opened={opened} onClose={close} title="New company">
        <form onSubmit={submit}>
          <Stack>
            {FIELDS.map((field) => (
              <TextInput
                key={field.key}
                label={field.label}
                value={values[field.key] ?? ''}
                error={fieldMessage(create.error, field.key)}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [field.key]: value }));
                }}
              />
            ))}
            {create.error && !named && (
              <Alert color="red" role="alert">
                {create.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create company
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
