// Validation messages read like a person wrote them: unions of literals as "one of", nullable values,
// the alternative whose type the value has, accepted fields for an unknown one.
import { type TSchema, Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validationFailure, validatorCompiler } from './validation.js';

function messages(schema: TSchema, value: unknown, part = 'body'): Record<string, string[]> {
  const validate = validatorCompiler({ schema, httpPart: part } as never) as unknown as {
    (value: unknown): boolean;
    errors: never[];
  };
  expect(validate(value)).toBe(false);
  return validationFailure(validate.errors, part).data as Record<string, string[]>;
}

const body = (properties: Record<string, TSchema>) =>
  Type.Object(properties, { additionalProperties: false });

describe('validation messages', () => {
  it('lists the values of a union of literals, and of enums', () => {
    const orderType = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
    expect(messages(body({ order_type: orderType }), { order_type: 5 })).toEqual({
      order_type: ['order_type must be one of asc, desc.'],
    });
    expect(messages(body({ status: Type.Enum(['on', 'off']) }), { status: 'maybe' })).toEqual({
      status: ['status must be one of on, off.'],
    });
    expect(messages(body({ kind: Type.Literal('lead') }), { kind: 'company' })).toEqual({
      kind: ['kind must be lead.'],
    });
  });

  it('says what a nullable or mixed union accepts when the value fits no alternative', () => {
    const value = Type.Union([Type.Union([Type.String(), Type.Number(), Type.Boolean()]), Type.Null()]);
    expect(messages(body({ value }), { value: { a: 1 } })).toEqual({
      value: ['value must be a string, a number, a boolean or null.'],
    });
    const flag = Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Boolean(), Type.Null()]);
    expect(messages(body({ flag }), { flag: 'yes' })).toEqual({
      flag: ['flag must be one of 0, 1, true, false, null.'],
    });
  });

  it('explains the alternative whose type the value has', () => {
    const name = Type.Union([Type.String({ maxLength: 3 }), Type.Null()]);
    expect(messages(body({ name }), { name: 'long name' })).toEqual({
      name: ['name must be at most 3 characters long.'],
    });
    const id = Type.Union([Type.Integer({ minimum: 1, maximum: 99 }), Type.String({ pattern: '^\\d+$' })], {
      description: 'Numeric id',
    });
    expect(messages(body({ id }), { id: 'abc' })).toEqual({
      id: ['id must match the pattern ^\\d+$ (Numeric id).'],
    });
    const nested = Type.Union([body({ a: Type.String() }), Type.Null()]);
    expect(messages(body({ nested }), { nested: { a: 'x', b: 1 } })).toEqual({
      'nested.b': ['The nested.b field is not accepted here. Accepted fields: a.'],
    });
  });

  it('names required, unknown, bounded and formatted fields', () => {
    const schema = body({
      name: Type.String({ minLength: 1 }),
      count: Type.Integer({ minimum: 0, maximum: 10 }),
      uuid: Type.Optional(Type.String({ format: 'uuid' })),
      on: Type.Optional(Type.Boolean()),
    });
    expect(messages(schema, { count: 11, uuid: 'x', on: 'yes', extra: 1 })).toEqual({
      name: ['The name field is required.'],
      extra: ['The extra field is not accepted here. Accepted fields: name, count, uuid, on.'],
      count: ['count must be at most 10.'],
      uuid: ['uuid must be a UUID.'],
      on: ['on must be true or false.'],
    });
    expect(messages(schema, { name: '', count: -1 })).toEqual({
      name: ['name must not be empty.'],
      count: ['count must be at least 0.'],
    });
  });

  it('says where a query or path error is', () => {
    const failure = validationFailure(
      (() => {
        const validate = validatorCompiler({
          schema: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 5 }) }),
          httpPart: 'querystring',
        } as never) as unknown as { (value: unknown): boolean; errors: never[] };
        validate({ limit: '9' });
        return validate.errors;
      })(),
      'querystring',
    );
    expect(failure.message).toBe('limit must be at most 5 (in the query).');
  });
});
