// A node's payload edited through a form generated from the JSON Schema the node-types endpoint serves
// (the schema the API validates against: one source). Hand-written rather than react-jsonschema-form:
// rjsf needs a JSON Schema validator in the browser to pick anyOf options, and ajv compiles code with
// `new Function`, which the app's Content-Security-Policy forbids; validation stays with the API
// (validate-node and the version save), whose problems are shown on the node.
import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { DurationInput } from './DurationInput';
import { referenceKindOf, useReferences } from './references';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

/** Fields another editor of the panel owns (the template editor, the trigger's timeout). */
export type FieldOverrides = Record<
  string,
  (props: { value: unknown; onChange(value: unknown): void }) => ReactNode
>;

const LABELS: Record<string, string> = { template_uuid: 'AI template', template: 'Text', subject: 'Subject' };
const human = (name: string) => {
  if (LABELS[name]) return LABELS[name];
  const text = name.replace(/_uuids?$/, '').replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** `X | null` read as an optional X; `a | b | c` literals as a choice. */
function unwrap(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return { schema, nullable: false };
  const rest = options.filter((o) => o.type !== 'null');
  if (rest.length === 1 && rest[0])
    return { schema: { ...rest[0], description: schema.description ?? rest[0].description }, nullable: true };
  return { schema, nullable: rest.length < options.length };
}

function literals(schema: JsonSchema): unknown[] | null {
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.every((o) => 'const' in o)) return options.map((o) => o.const);
  return schema.enum ?? null;
}

const isSeconds = (schema: JsonSchema) => /\(seconds/.test(schema.description ?? '');

export function SchemaForm(props: {
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  overrides?: FieldOverrides;
  /** Prefix of the inputs' accessible names (the step). */
  idPrefix: string;
}) {
  const properties = props.schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0)
    return (
      <Text size="sm" c="dimmed">
        This step has nothing to configure.
      </Text>
    );
  return (
    <Stack gap="sm">
      {names.map((name) => {
        const override = props.overrides?.[name];
        const set = (value: unknown) => {
          const next = { ...props.value };
          if (value === undefined) delete next[name];
          else next[name] = value;
          props.onChange(next);
        };
        if (override) return <div key={name}>{override({ value: props.value[name], onChange: set })}</div>;
        return (
          <Field
            key={name}
            name={name}
            schema={properties[name] as JsonSchema}
            value={props.value[name]}
            onChange={set}
            id={`${props.idPrefix}-${name}`}
          />
        );
      })}
    </Stack>
  );
}

function Field(props: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  onChange(value: unknown): void;
  id: string;
}) {
  const { schema, nullable } = unwrap(props.schema);
  const label = human(props.name);
  const description = schema.description;
  const choices = literals(schema);
  const kind = referenceKindOf(props.name);

  if (kind && (schema.format === 'uuid' || schema.type === 'array')) {
    return (
      <ReferenceField
        {...props}
        kind={kind}
        multiple={schema.type === 'array'}
        label={label}
        description={description}
      />
    );
  }
  if (choices) {
    return (
      <Select
        id={props.id}
        label={label}
        description={description}
        clearable
        data={choices.map((c) => ({ value: JSON.stringify(c), label: c === '' ? '(empty)' : String(c) }))}
        value={props.value === undefined || props.value === null ? null : JSON.stringify(props.value)}
        onChange={(v) => props.onChange(v === null ? (nullable ? null : undefined) : JSON.parse(v))}
      />
    );
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if ((type === 'integer' || type === 'number') && isSeconds(schema)) {
    return (
      <DurationInput
        label={label}
        description={description}
        value={Number(props.value ?? 0)}
        onChange={props.onChange}
      />
    );
  }
  switch (type) {
    case 'string':
      return (schema.maxLength ?? 0) > 255 ? (
        <Textarea
          id={props.id}
          label={label}
          description={description}
          autosize
          minRows={2}
          maxRows={10}
          value={typeof props.value === 'string' ? props.value : ''}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      ) : (
        <TextInput
          id={props.id}
          label={label}
          description={description}
          value={typeof props.value === 'string' ? props.value : ''}
          onChange={(e) => props.onChange(e.currentTarget.value || (nullable ? null : undefined))}
        />
      );
    case 'integer':
    case 'number':
      return (
        <NumberInput
          id={props.id}
          label={label}
          description={description}
          min={schema.minimum}
          max={schema.maximum}
          allowDecimal={type === 'number'}
          value={typeof props.value === 'number' ? props.value : ''}
          onChange={(v) => props.onChange(v === '' ? undefined : Number(v))}
        />
      );
    case 'boolean':
      return (
        <Switch
          id={props.id}
          label={label}
          description={description}
          checked={props.value === true}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
      );
    case 'array':
      return <ArrayField {...props} schema={schema} label={label} />;
    case 'object':
      if (schema.properties) {
        return (
          <Fieldset legend={label}>
            {description && (
              <Text size="xs" c="dimmed" mb="xs">
                {description}
              </Text>
            )}
            <SchemaForm
              schema={schema}
              value={(props.value as Record<string, unknown>) ?? {}}
              onChange={props.onChange}
              idPrefix={props.id}
            />
          </Fieldset>
        );
      }
      return <JsonField {...props} label={label} description={description} />;
    default:
      return <JsonField {...props} label={label} description={description} />;
  }
}

function ReferenceField(props: {
  kind: NonNullable<ReturnType<typeof referenceKindOf>>;
  multiple: boolean;
  label: string;
  description?: string;
  value: unknown;
  onChange(value: unknown): void;
  id: string;
}) {
  const choices = useReferences(props.kind);
  const data = choices.data ?? [];
  if (props.multiple) {
    return (
      <MultiSelect
        id={props.id}
        label={props.label}
        description={props.description}
        searchable
        data={data}
        value={Array.isArray(props.value) ? (props.value as string[]) : []}
        onChange={(v) => props.onChange(v.length > 0 ? v : null)}
      />
    );
  }
  return (
    <Select
      id={props.id}
      label={props.label}
      description={props.description}
      searchable
      clearable
      placeholder={choices.isLoading ? 'Loading…' : data.length === 0 ? 'None yet' : 'Choose'}
      data={data}
      value={typeof props.value === 'string' ? props.value : null}
      onChange={(v) => props.onChange(v ?? undefined)}
    />
  );
}

function ArrayField(props: {
  schema: JsonSchema;
  label: string;
  value: unknown;
  onChange(value: unknown): void;
  id: string;
}) {
  const items = Array.isArray(props.value) ? props.value : [];
  const itemSchema = props.schema.items ?? {};
  const max = props.schema.maxItems ?? 100;
  const fixed = props.schema.minItems !== undefined && props.schema.minItems === props.schema.maxItems;
  const empty = () => (unwrap(itemSchema).schema.type === 'object' ? {} : '');
  return (
    <Fieldset legend={props.label}>
      {props.schema.description && (
        <Text size="xs" c="dimmed" mb="xs">
          {props.schema.description}
        </Text>
      )}
      <Stack gap="xs">
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
          <Group key={index} align="flex-start" wrap="nowrap">
            <div style={{ flex: 1 }}>
              <Field
                name={`${props.label} ${index + 1}`}
                schema={itemSchema}
                value={item}
                id={`${props.id}-${index}`}
                onChange={(v) => props.onChange(items.map((old, i) => (i === index ? v : old)))}
              />
            </div>
            {!fixed && (
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={`Remove ${props.label} ${index + 1}`}
                onClick={() => props.onChange(items.filter((_, i) => i !== index))}
              >
                ×
              </ActionIcon>
            )}
          </Group>
        ))}
        {!fixed && items.length < max && (
          <Button variant="light" size="xs" onClick={() => props.onChange([...items, empty()])}>
            Add {props.label.toLowerCase()}
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}

/** Anything the form has no control for: edited as JSON, applied when it parses. */
function JsonField(props: {
  label: string;
  description?: string;
  value: unknown;
  onChange(value: unknown): void;
  id: string;
}) {
  return (
    <Textarea
      id={props.id}
      label={`${props.label} (JSON)`}
      description={props.description}
      autosize
      minRows={2}
      maxRows={12}
      styles={{ input: { fontFamily: 'monospace' } }}
      defaultValue={props.value === undefined ? '' : JSON.stringify(props.value, null, 2)}
      onChange={(e) => {
        const text = e.currentTarget.value.trim();
        if (text === '') return props.onChange(undefined);
        try {
          props.onChange(JSON.parse(text));
        } catch {
          // Not JSON yet: keep typing; the stored value stays the last one that parsed.
        }
      }}
    />
  );
}
