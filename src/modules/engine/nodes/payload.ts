// Pieces the node definitions' payload schemas, references and template texts share, and the small
// steps several runners end with.
import { type TSchema, Type } from 'typebox';
import type { WorkStep } from '../run/work.js';
import type { Reference, ReferenceKind, TemplateText } from './define.js';

/** LinkedIn texts: the platform's message limit (api-facts L). */
export const LINKEDIN_TEXT_MAX = 8000;
export const INMAIL_SUBJECT_MAX = 511;
/** E-mail bodies are HTML and routinely longer than a LinkedIn message. */
export const EMAIL_BODY_MAX = 100_000;

export const closed = <T extends Record<string, TSchema>>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });
export const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const uuid = (description: string) => Type.String({ format: 'uuid', description });
export const text = (max: number, description: string) => Type.String({ maxLength: max, description });
export const seconds = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 31_536_000, description: `${description} (seconds, at most a year)` });

export const LINEAR = { kind: 'fixed', ids: [1] } as const;
export const noPayload = closed({}, 'No configuration ({} or [])');

/** The reference a payload's `key` holds, when it holds one. */
export const one =
  (kind: ReferenceKind, key: string) =>
  (payload: Record<string, unknown>): Reference[] => {
    const value = payload[key];
    return typeof value === 'string' ? [{ kind, uuid: value, path: `payload.${key}` }] : [];
  };

/** The named payload fields that hold a rendered text (when they are strings). */
export const textFields =
  <K extends string>(...keys: K[]) =>
  (payload: { [key in K]?: string | null }): TemplateText[] =>
    keys.flatMap((key) => {
      const value = payload[key];
      return typeof value === 'string' ? [{ path: `payload.${key}`, text: value }] : [];
    });

/** A step the node does not act on: skipped, with why, and the contact moves on by branch 1. */
export function skipped(code: string, message: string): WorkStep {
  return {
    type: 'advance',
    branch: 1,
    outcome: { status: 'skipped', automation_error_code: code, error_msg: message },
  };
}

/** The node did its part at once: closed, on by branch 1. */
export function closedStep(): WorkStep {
  return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
}

/** The `wait` the enrollment carries while it waits at a node (set by the node's first visit). */
export const waitOf = (wait: unknown): Record<string, unknown> => (wait ?? {}) as Record<string, unknown>;
