// A field edited in place: it saves when it loses focus (or on Enter in a one-line field) if its value
// changed; the API's refusal shows under it and the typed value stays for correction.
import { Textarea, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { messageOf } from '../api';
import { fieldMessage } from './field-error';

export function EditableField(props: {
  label: string;
  field: string;
  value: string | null | undefined;
  onSave: (value: string | null) => Promise<unknown>;
  multiline?: boolean;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState(props.value ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => setDraft(props.value ?? ''), [props.value]);

  async function save() {
    if (draft === (props.value ?? '') || saving) return;
    setSaving(true);
    try {
      await props.onSave(draft.trim() === '' ? null : draft);
      setError(undefined);
    } catch (e) {
      setError(fieldMessage(e, props.field) ?? messageOf(e));
    } finally {
      setSaving(false);
    }
  }
  const common = {
    label: props.label,
    value: draft,
    error,
    placeholder: props.placeholder ?? '—',
    onChange: (e: { currentTarget: { value: string } }) => setDraft(e.currentTarget.value),
    onBlur: () => void save(),
  };
  return props.multiline ? (
    <Textarea {...common} autosize minRows={2} maxRows={8} />
  ) : (
    <TextInput
      {...common}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void save();
        if (e.key === 'Escape') setDraft(props.value ?? '');
      }}
    />
  );
}
