// The palette: every node type the API accepts, grouped like the catalogue (actions, conditions,
// triggers, CRM, utilities), searchable; choosing one inserts it where the "+" was clicked.
import { Button, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { NodeTypeInfo } from '../flow-types';
import { groupOf, labelOf, PALETTE_GROUPS } from './node-meta';

export function Palette(props: {
  opened: boolean;
  where: string;
  types: NodeTypeInfo[];
  onClose(): void;
  onPick(type: NodeTypeInfo): void;
}) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const matches = props.types.filter(
    (t) =>
      groupOf(t) !== null &&
      (!needle ||
        labelOf(t.type).toLowerCase().includes(needle) ||
        t.description.toLowerCase().includes(needle)),
  );
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={`Add a step after ${props.where}`} size="xl">
      <Stack>
        <TextInput
          aria-label="Search step types"
          placeholder="Search steps…"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-autofocus
        />
        {PALETTE_GROUPS.map((group) => {
          const inGroup = matches.filter((t) => groupOf(t) === group);
          if (inGroup.length === 0) return null;
          return (
            <section key={group} aria-label={group}>
              <Title order={3} size="h5" mb={4}>
                {group}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs">
                {inGroup.map((t) => (
                  <Button
                    key={t.type}
                    aria-label={labelOf(t.type)}
                    variant="default"
                    h="auto"
                    py={6}
                    styles={{
                      inner: { justifyContent: 'flex-start' },
                      label: { whiteSpace: 'normal', textAlign: 'left' },
                    }}
                    onClick={() => {
                      setSearch('');
                      props.onPick(t);
                    }}
                  >
                    <span>
                      <Text component="span" fw={600} size="sm" display="block">
                        {labelOf(t.type)}
                      </Text>
                      <Text component="span" size="xs" c="dimmed" display="block">
                        {t.description}
                      </Text>
                    </span>
                  </Button>
                ))}
              </SimpleGrid>
            </section>
          );
        })}
        {matches.length === 0 && <Text>No step type matches “{search}”.</Text>}
      </Stack>
    </Modal>
  );
}
