// "New flow": a name (and the folder being looked at), then straight into the builder.
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call } from '../../api';

export function NewFlowButton({ workspace }: { workspace: string | null }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/flows/api/flows', {
          body: {
            name: name.trim(),
            flow_workspace_uuid: workspace,
            // Office hours in this browser's zone; the builder's schedule panel changes them.
            schedule: {
              timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
              use_lead_timezone: false,
              timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
            },
          },
        }),
      ),
    onSuccess: (flow) => {
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
      close();
      void navigate({ to: '/flows/$flowUuid', params: { flowUuid: flow.uuid } });
    },
  });
  const nameError = create.error instanceof ApiError ? create.error.fields.name?.join(' ') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <>
      <Button onClick={open}>New flow</Button>
      <Modal opened={opened} onClose={close} title="New flow">
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              required
              data-autofocus
              value={name}
              error={nameError}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            {create.error && !nameError && (
              <Alert color="red" role="alert">
                {create.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create and open builder
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
