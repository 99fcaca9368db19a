// Route schemas compile when a route first uses them, not when the app starts: compiling every
// validator (Ajv) and response serializer (fast-json-stringify) of ~150 routes took most of a start-up
// (4-8 s of CPU), and most processes - and every test file - use a few routes. A test builds the app
// with `eager` compilation, so a schema that cannot compile still fails there, not on a first request.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';

export type SchemaCompilation = 'lazy' | 'eager';

type Validate = ((data: unknown, context?: object) => boolean) & { errors?: unknown; schemaEnv?: unknown };

/** A validator that compiles on its first call; it carries the compiled one's errors like Ajv's own. */
export function lazyValidator(compile: () => ValidateFunction): Validate {
  let compiled: ValidateFunction | undefined;
  const validate: Validate = (data, context) => {
    compiled ??= compile();
    const valid = compiled(data, context as never) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null;
  // Fastify hands Ajv validators (recognised by `schemaEnv`) the request as parent, so defaults and
  // coercion can replace a root value (a query string's array): keep that.
  validate.schemaEnv = true;
  return validate;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's serializer factory (fast-json-stringify with the shared schemas), compiling on first use. */
export function serializerFactory(mode: SchemaCompilation): SerializerFactory {
  const eager = SerializerSelector();
  if (mode === 'eager') return eager;
  return (externalSchemas, serializerOptions) => {
    const compile = eager(externalSchemas, serializerOptions);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => {
        serialize ??= compile(route) as (data: unknown) => string;
        return serialize(data);
      };
    };
  };
}
