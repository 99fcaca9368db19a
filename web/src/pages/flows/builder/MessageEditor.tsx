// The template editor of message steps: CodeMirror with the variables completed after "{{" (contact,
// company, custom fields, sender - GET /flows/api/ai-templates/variables), the 300-character count of
// connection notes, and as you type the text checked and rendered by the engine's own renderer
// (POST /flows/api/ai-templates/render) for a real contact of the flow and its sender: Liquid or spintax
// errors, variables the contact has no value for, and names that are no variable at all.
import { autocompletion, type CompletionContext } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { Alert, Input, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { ApiError, api, call } from '../../../api';

/** Whom the live preview renders for; null: nobody (no sender or contacts), undefined: still looking. */
export type Subject = { leadUuid: string; leadName: string | null; senderUuid: string } | null | undefined;

function useVariables() {
  return useQuery({
    queryKey: ['template-variables'],
    queryFn: () => call(api.GET('/flows/api/ai-templates/variables')),
    staleTime: 60_000,
  });
}

export function MessageEditor(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Most characters (connection notes: 300). */
  limit?: number;
  /** Whom the live preview renders for (null: nobody to render for yet). */
  subject: Subject;
  disabled?: boolean;
}) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const variables = useVariables();
  const names = useRef<Array<{ name: string; description: string }>>([]);
  names.current = variables.data ?? [];

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once per step; outside changes (undo) are applied below
  useEffect(() => {
    if (!host.current) return;
    const complete = (context: CompletionContext) => {
      const word = context.matchBefore(/\{\{\s*[\w.]*$/);
      if (!word) return null;
      const start = word.from + (word.text.match(/^\{\{\s*/)?.[0].length ?? 2);
      return {
        from: start,
        options: names.current.map((v) => ({ label: v.name, detail: v.description, type: 'variable' })),
        validFor: /^[\w.]*$/,
      };
    };
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          autocompletion({ override: [complete], activateOnTyping: true }),
          EditorView.lineWrapping,
          placeholder('Hi {{first_name}}, … (type {{ for variables)'),
          EditorView.editable.of(!props.disabled),
          EditorView.contentAttributes.of({ 'aria-labelledby': `${id}-label`, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChange.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, [id, props.disabled]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== props.value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
    }
  }, [props.value]);

  const length = props.value.length;
  return (
    <Input.Wrapper
      label={props.label}
      labelProps={{ id: `${id}-label` }}
      description={props.limit ? `${length} / ${props.limit} characters` : undefined}
      error={
        props.limit && length > props.limit
          ? `At most ${props.limit} characters (LinkedIn's limit)`
          : undefined
      }
    >
      <div ref={host} className="lf-template-editor" />
      <LivePreview text={props.value} subject={props.subject} />
    </Input.Wrapper>
  );
}

function LivePreview({ text, subject }: { text: string; subject: Subject }) {
  const [debounced] = useDebouncedValue(text, 400);
  const render = useQuery({
    queryKey: ['template-render', debounced, subject?.leadUuid, subject?.senderUuid],
    enabled: !!subject && debounced.trim() !== '',
    retry: false,
    queryFn: () =>
      call(
        api.POST('/flows/api/ai-templates/render', {
          body: {
            lead_uuid: subject?.leadUuid ?? '',
            sender_profile_uuid: subject?.senderUuid ?? '',
            body: debounced,
            seed: 'builder-preview',
          },
        }),
      ),
  });
  if (subject === undefined) return null;
  if (!subject) {
    return (
      <Text size="xs" c="dimmed" mt={4}>
        Add a sender and contacts to the flow to see this text for one of them.
      </Text>
    );
  }
  if (render.isError) {
    const error = render.error;
    return (
      <Alert color="red" mt={4} p="xs" role="alert" title="This text cannot be sent">
        {error instanceof ApiError
          ? Object.values(error.fields).flat().join(' ') || error.message
          : String(error)}
      </Alert>
    );
  }
  const data = render.data;
  if (!data) return null;
  return (
    <div className="lf-template-preview" aria-live="polite">
      <Text size="xs" c="dimmed">
        For {subject.leadName ?? 'a contact of this flow'}:
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {data.final_body ?? data.rendered_body ?? ''}
      </Text>
      {data.missing_variables.length > 0 && (
        <Text size="xs" c="orange.9">
          No value for this contact: {data.missing_variables.join(', ')}
        </Text>
      )}
      {data.unknown_variables.length > 0 && (
        <Text size="xs" c="red.9">
          Not a variable: {data.unknown_variables.join(', ')}
        </Text>
      )}
    </div>
  );
}
