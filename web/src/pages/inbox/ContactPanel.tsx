// The contact beside a conversation: who they are, stage, tags and the flows they are in; from here,
// stop every flow they are in (after a confirmation). Read state is the thread's (ReadToggle.tsx).
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { useStages, useTags } from '../../ui/useCatalogs';
import { type Contact, contactName } from '../contacts/contact';

export function ContactPanel(props: { contact: Contact | undefined; leadUuid: string }) {
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const tags = useTags();
  const stages = useStages();
  const contact = props.contact;
  const flows = useQuery({
    queryKey: ['inbox', 'flows-of', props.leadUuid],
    queryFn: async () => {
      const [enrollments, all] = await Promise.all([
        call(
          api.POST('/flows/api/flows-leads/list', {
            body: { filter: { lead_uuid: props.leadUuid, status: ['in_progress', 'paused'] }, limit: 100 },
          }),
        ),
        call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
      ]);
      const names = new Map(all.data.map((f) => [f.uuid, f.name]));
      return enrollments.data.map((e) => ({ ...e, flow_name: names.get(e.flow_uuid) ?? 'Deleted flow' }));
    },
  });
  const stopFlows = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/flows/api/flows/leads/{leadUuid}/cancel-all', {
          params: { path: { leadUuid: props.leadUuid } },
        }),
      ),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Removed from every flow.' });
      void queryClient.invalidateQueries({ queryKey: ['inbox', 'flows-of', props.leadUuid] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const name = contact ? contactName(contact) : 'Deleted contact';
  const stage = contact?.pipeline_stage_uuid ? stages.byUuid.get(contact.pipeline_stage_uuid) : undefined;
  const running = flows.data ?? [];

  return (
    <Stack gap="sm" component="aside" aria-label="Contact">
      <Title order={2} size="h4">
        {name}
      </Title>
      {contact?.position && (
        <Text size="sm">
          {contact.position}
          {contact.company_name ? ` at ${contact.company_name}` : ''}
        </Text>
      )}
      {(contact?.work_email ?? contact?.personal_email) && (
        <Text size="sm">{contact?.work_email ?? contact?.personal_email}</Text>
      )}
      {contact?.linkedin && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {contact.linkedin}
        </Text>
      )}
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Stage:
        </Text>
        <Text size="sm">{stage?.name ?? '—'}</Text>
      </Group>
      <Group gap={4} aria-label="Tags">
        {(contact?.tags ?? []).map((uuid) => (
          <Badge key={uuid} color="gray">
            {tags.byUuid.get(uuid)?.name ?? 'tag'}
          </Badge>
        ))}
        {(contact?.tags ?? []).length === 0 && (
          <Text size="sm" c="dimmed">
            No tags
          </Text>
        )}
      </Group>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Flows
        </Text>
        {running.length === 0 && (
          <Text size="sm" c="dimmed">
            In no flow.
          </Text>
        )}
        {running.map((e) => (
          <Text key={e.uuid} size="sm">
            {e.flow_name} · {e.status === 'paused' ? 'paused' : 'running'}
          </Text>
        ))}
      </Stack>
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          color="red"
          disabled={running.length === 0}
          loading={stopFlows.isPending}
          onClick={() =>
            confirm(
              `Remove ${name} from ${running.length} ${running.length === 1 ? 'flow' : 'flows'}? No further step runs for them.`,
              'Stop flows',
              () => stopFlows.mutate(),
            )
          }
        >
          Stop flows
        </Button>
      </Group>
      {dialog}
    </Stack>
  );
}
