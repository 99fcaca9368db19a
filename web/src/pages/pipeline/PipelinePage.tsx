// The pipeline board: one column per contact stage with its contacts (the latest 50 and the count);
// drag a card to another column, or use its Move menu from the keyboard, to change the contact's stage.
import { Anchor, Badge, Button, Group, Menu, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { useStages } from '../../ui/useCatalogs';
import { type Contact, contactName } from '../contacts/contact';

const PER_COLUMN = 50;

export function PipelinePage() {
  const queryClient = useQueryClient();
  const stages = useStages()
    .stages.filter((s) => s.object === 'lead')
    .sort((a, b) => a.order - b.order);
  const [over, setOver] = useState<string>();
  const columns = useQueries({
    queries: stages.map((stage) => ({
      queryKey: ['pipeline', stage.uuid],
      queryFn: () =>
        call(
          api.POST('/leads/api/leads/search', {
            body: {
              limit: PER_COLUMN,
              order_field: 'updated_at',
              order_type: 'desc',
              filter: { pipeline_stage_uuid: stage.uuid },
            },
          }),
        ) as Promise<{ data: Contact[]; total: number }>,
    })),
  });
  const move = useMutation({
    mutationFn: ({ uuid, stage }: { uuid: string; stage: string }) =>
      call(
        api.PUT('/leads/api/leads/{uuid}', {
          params: { path: { uuid } },
          body: { pipeline_stage_uuid: stage },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['pipeline'] });
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const empty = columns.every((c) => c.isSuccess && c.data.total === 0);

  return (
    <Stack>
      <Title order={1} size="h2">
        Pipeline
      </Title>
      {empty && stages.length > 0 && (
        <Text>No contacts yet. Add or import contacts; they start in the first stage.</Text>
      )}
      <ScrollArea type="auto" offsetScrollbars>
        <Group align="flex-start" wrap="nowrap" gap="sm">
          {stages.map((stage, index) => {
            const column = columns[index]?.data;
            return (
              <Paper
                key={stage.uuid}
                component="section"
                aria-label={`${stage.name} (${column?.total ?? 0})`}
                withBorder
                p="xs"
                w={260}
                miw={260}
                bg={over === stage.uuid ? 'var(--mantine-primary-color-light)' : undefined}
                onDragOver={(e) => {
                  e.preventDefault();
                  setOver(stage.uuid);
                }}
                onDragLeave={() => setOver(undefined)}
                onDrop={(e) => {
                  e.preventDefault();
                  setOver(undefined);
                  const uuid = e.dataTransfer.getData('text/plain');
                  if (uuid) move.mutate({ uuid, stage: stage.uuid });
                }}
              >
                <Group justify="space-between" mb="xs">
                  <Title order={2} size="h5">
                    {stage.name}
                  </Title>
                  <Badge color="gray">{column?.total ?? 0}</Badge>
                </Group>
                <Stack gap="xs" component="ul" p={0} m={0} mih={60} aria-label={`Contacts in ${stage.name}`}>
                  {column?.data.map((c) => (
                    <Paper
                      key={c.uuid}
                      component="li"
                      withBorder
                      p="xs"
                      draggable
                      style={{ listStyle: 'none', cursor: 'grab' }}
                      onDragStart={(e) => e.dataTransfer.setData('text/plain', c.uuid)}
                    >
                      <Group justify="space-between" wrap="nowrap" gap={4}>
                        <Anchor
                          size="sm"
                          renderRoot={(props) => (
                            <Link {...props} to="/contacts/$uuid" params={{ uuid: c.uuid }} />
                          )}
                        >
                          {contactName(c)}
                        </Anchor>
                        <Menu position="bottom-end">
                          <Menu.Target>
                            <Button size="compact-xs" variant="subtle" aria-label={`Move ${contactName(c)}`}>
                              Move
                            </Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {stages
                              .filter((s) => s.uuid !== stage.uuid)
                              .map((s) => (
                                <Menu.Item
                                  key={s.uuid}
                                  onClick={() => move.mutate({ uuid: c.uuid, stage: s.uuid })}
                                >
                                  {s.name}
                                </Menu.Item>
                              ))}
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                      {c.company_name && (
                        <Text size="xs" c="dimmed" truncate>
                          {c.company_name}
                        </Text>
                      )}
                    </Paper>
                  ))}
                </Stack>
                {column && column.total > column.data.length && (
                  <Text size="xs" c="dimmed" mt="xs">
                    and {column.total - column.data.length} more
                  </Text>
                )}
              </Paper>
            );
          })}
        </Group>
      </ScrollArea>
    </Stack>
  );
}
