// What a template sees: the variables of one contact, its company, custom fields and the sender, as
// Liquid values. An empty variable is a `Missing` marker rather than null, so the renderer can tell
// which variables printed blank (the caller decides whether a message with blanks may go out), while
// Liquid still treats it as nil: `{% if first_name %}` is false and `| default: "there"` applies.
import { Drop } from 'liquidjs';

import {
  COMPANY_VARIABLES,
  CONTACT_VARIABLES,
  type CompanyVariable,
  type ContactVariable,
  customFieldSlug,
  SENDER_VARIABLES,
  type SenderVariable,
} from '../template-variables.js';

/** One contact's template data, as the loader (`template-data.repository.ts`) builds it. */
export type TemplateData = {
  contact: Partial<Record<ContactVariable, unknown>>;
  /** null when the contact has no linked company (company.* are then empty, `company` = company_name). */
  company: Partial<Record<CompanyVariable, unknown>> | null;
  /** Contact custom fields by field name (every field the team defined; unset ones are null). */
  customFields: Record<string, unknown>;
  companyCustomFields: Record<string, unknown>;
  /** null when rendering without a sender (sender.* are then empty). */
  sender: Partial<Record<SenderVariable, unknown>> | null;
};

/** A variable reference that printed (or fed a filter) while empty. `known`: it is in the variable list. */
export type VariableRef = { name: string; known: boolean };

// Symbol-keyed so a template cannot call them: Liquid calls any function property a template names.
export const REFS = Symbol('refs');

/**
 * Liquid reads any property of a Drop (its own-property guard does not apply to Drops) and calls it when
 * it is a function. `constructor` and `__proto__` shadowed by undefined on the prototypes make
 * `{{ company.constructor }}` an ordinary unknown field instead of a call into the class. Subclasses
 * call `seal(Class)` for their own prototype's `constructor`.
 */
export class SealedDrop extends Drop {}
export function seal(cls: { prototype: object }): void {
  for (const key of ['constructor', '__proto__'])
    Object.defineProperty(cls.prototype, key, { value: undefined });
}
seal(SealedDrop);

/** An empty variable (or a value computed from one by filters): nil to Liquid, remembered by name. */
export class Missing extends SealedDrop {
  readonly #refs: VariableRef[];
  readonly #value: unknown;
  constructor(refs: VariableRef[], value: unknown = null) {
    super();
    this.#refs = refs;
    this.#value = value;
  }
  [REFS](): VariableRef[] {
    return this.#refs;
  }
  override valueOf(): unknown {
    return this.#value;
  }
  override toString(): string {
    return this.#value == null ? '' : String(this.#value);
  }
  // Reading a property of an empty variable (`company.name` with no company) is empty too.
  override liquidMethodMissing(): Missing {
    return new Missing(this.#refs);
  }
}
seal(Missing);

export function isEmptyValue(value: unknown): boolean {
  if (value == null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

const present = (value: unknown, name: string, known = true) =>
  isEmptyValue(value) ? new Missing([{ name, known }]) : value;

const NONE: ReadonlySet<string> = new Set();
const COMPANY_KEYS: ReadonlySet<string> = new Set(COMPANY_VARIABLES);
const SENDER_KEYS: ReadonlySet<string> = new Set(SENDER_VARIABLES);

/**
 * A group of variables (`company`, `sender`, `custom_fields`): `.key` reads a field; printed alone it
 * is its `primary` value. Keys are matched exactly, then case-insensitively, then by `cf_` slug; a key
 * that is not a field is reported as unknown. Fields are private so templates cannot reach internals.
 */
export class FieldsDrop extends SealedDrop {
  readonly #prefix: string;
  readonly #fields: Map<string, unknown>;
  readonly #primary: unknown;
  readonly #known: ReadonlySet<string>;
  /** `known`: keys that are variables even when `fields` has no value for them. */
  constructor(
    prefix: string,
    fields: Map<string, unknown>,
    primary: unknown = null,
    known: ReadonlySet<string> = NONE,
  ) {
    super();
    this.#prefix = prefix;
    this.#fields = fields;
    this.#primary = primary;
    this.#known = known;
  }
  override valueOf(): unknown {
    return isEmptyValue(this.#primary) ? null : this.#primary;
  }
  override toString(): string {
    return isEmptyValue(this.#primary) ? '' : String(this.#primary);
  }
  /** When printed alone while its primary value is empty: the variable to report. */
  [REFS](): VariableRef[] {
    return isEmptyValue(this.#primary) ? [{ name: this.#prefix, known: true }] : [];
  }
  override liquidMethodMissing(key: unknown): unknown {
    const name = String(key);
    const path = `${this.#prefix}.${name}`;
    if (this.#fields.has(name)) return present(this.#fields.get(name), path);
    const lower = name.toLowerCase();
    for (const [field, value] of this.#fields) {
      if (field.toLowerCase() === lower || customFieldSlug(field) === lower) {
        return present(value, `${this.#prefix}.${field}`);
      }
    }
    return new Missing([{ name: path, known: this.#known.has(name) }]);
  }
}
seal(FieldsDrop);

// Drops ignore Liquid's own-property guard (ownPropertyOnly), so these are not properties but map
// entries, read through liquidMethodMissing.
const fields = (entries: Iterable<[string, unknown]>) => new Map(entries);

/** The scope of one render: top-level contact variables plus the company, custom field and sender groups. */
export function buildScope(data: TemplateData): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const key of CONTACT_VARIABLES) scope[key] = present(data.contact[key], key);
  const companyName = isEmptyValue(data.contact.company_name)
    ? (data.company?.name ?? null)
    : data.contact.company_name;
  scope.company_name = present(companyName, 'company_name');

  const companyFields = fields(Object.entries(data.company ?? {}));
  if (isEmptyValue(companyFields.get('name'))) companyFields.set('name', companyName);
  companyFields.set(
    'custom_fields',
    new FieldsDrop('company.custom_fields', fields(Object.entries(data.companyCustomFields))),
  );
  scope.company = new FieldsDrop('company', companyFields, companyName, COMPANY_KEYS);

  scope.custom_fields = new FieldsDrop('custom_fields', fields(Object.entries(data.customFields)));
  for (const [name, value] of Object.entries(data.customFields)) {
    const alias = `cf_${customFieldSlug(name)}`;
    if (!(alias in scope)) scope[alias] = present(value, `custom_fields.${name}`);
  }

  const sender = data.sender ?? {};
  const senderName =
    sender.name ??
    ([sender.first_name, sender.last_name].filter((part) => !isEmptyValue(part)).join(' ') || null);
  scope.sender = new FieldsDrop(
    'sender',
    fields([...Object.entries(sender), ['name', senderName]]),
    senderName,
    SENDER_KEYS,
  );
  return scope;
}
