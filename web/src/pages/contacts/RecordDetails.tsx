// The details of a contact or a company: its text fields edited in place, two columns, then "About".
import { Paper, SimpleGrid, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { EditableField } from '../../ui/EditableField';

export type DetailField = { readonly key: string; readonly label: string };

/** A titled panel of a record page (a labelled section). */
export function RecordSection(props: { title: string; label?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={props.label ?? props.title}>
      <Title order={2} size="h4" mb="sm">
        {props.title}
      </Title>
      {props.children}
    </Paper>
  );
}

export function RecordDetails(props: {
  fields: readonly DetailField[];
  record: Record<string, unknown>;
  onSave: (body: Record<string, unknown>) => Promise<unknown>;
}) {
  const { record, onSave } = props;
  return (
    <RecordSection title="Details">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {props.fields.map((f) => (
          <EditableField
            key={f.key}
            label={f.label}
            field={f.key}
            value={record[f.key] as string | null}
            onSave={(value) => onSave({ [f.key]: value })}
          />
        ))}
      </SimpleGrid>
      <EditableField
        label="About"
        field="about"
        multiline
        value={record.about as string | null}
        onSave={(value) => onSave({ about: value })}
      />
    </RecordSection>
  );
}
