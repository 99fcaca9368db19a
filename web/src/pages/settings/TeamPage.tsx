// The team: name and default time zone (owners), and its credit balances.
import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, call } from '../../api';
import { useSession } from '../../session';

const ZONES = Intl.supportedValuesOf('timeZone');

export function TeamPage() {
  const { team: current, isOwner } = useSession();
  const id = current?.id ?? 0;
  const queryClient = useQueryClient();
  const team = useQuery({
    queryKey: ['team', id],
    queryFn: () => call(api.GET('/id/api/teams/{id}', { params: { path: { id } } })),
  });
  const [name, setName] = useState('');
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    if (!team.data) return;
    setName(team.data.name);
    const configured = (team.data.config as { timezone?: unknown }).timezone;
    setZone(typeof configured === 'string' ? configured : null);
  }, [team.data]);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/id/api/teams/{id}', {
          params: { path: { id } },
          body: { name: name.trim(), ...(zone ? { timezone: zone } : {}) },
        }),
      ),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Team saved.' });
      void queryClient.invalidateQueries({ queryKey: ['team', id] });
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
  const error = (field: string) =>
    save.error instanceof ApiError ? save.error.fields[field]?.join(' ') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  const credits = team.data?.credits;
  return (
    <Stack maw={640}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Team name"
            required
            disabled={!isOwner}
            value={name}
            error={error('name')}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Select
            label="Time zone"
            description="Schedules without a zone of their own use this one"
            searchable
            disabled={!isOwner}
            data={ZONES}
            value={zone}
            error={error('timezone')}
            onChange={setZone}
          />
          {isOwner ? (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save team
              </Button>
            </Group>
          ) : (
            <Text size="sm">Only owners change the team.</Text>
          )}
        </Stack>
      </form>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {[
          ['Enrichment credits', credits?.advanced_enrichment],
          ['Activity credits', credits?.activities],
          ['AI credits', credits?.llm],
        ].map(([label, value]) => (
          <Paper key={String(label)} withBorder p="md">
            <Text size="sm">{label}</Text>
            <Text fw={700} size="xl">
              {value ?? '—'}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Text size="sm">
        Credits are added by an administrator: leadflow admin add-credits --team-id {id} --amount N
      </Text>
    </Stack>
  );
}
