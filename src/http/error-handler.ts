// Every failure leaves as {"error":{"reason","message","data"},"message","code"}. Client mistakes map to
// 4xx with a message naming the field; anything unexpected is a 500 whose detail stays in the log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorReason, errorReasons } from '../lib/errors.js';
import { validationFailure } from './validation.js';

export function errorBody(error: AppError) {
  return {
    error: { reason: error.reason, message: error.message, data: error.data },
    message: error.message,
    code: error.status,
  };
}

export function sendError(reply: FastifyReply, error: AppError) {
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(error));
}

const reasonByStatus = new Map<number, ErrorReason>(
  Object.entries(errorReasons).map(([reason, status]) => [status, reason as ErrorReason]),
);

type PgError = Error & { code?: string; detail?: string; constraint?: string; column?: string };

const INT_RANGES: Record<string, string> = {
  smallint: '-32768 to 32767',
  integer: '-2147483648 to 2147483647',
  bigint: '-9223372036854775808 to 9223372036854775807',
};

const TYPE_WORDS: Array<[RegExp, string]> = [
  [/\b(smallint|integer|bigint)\b/, 'a whole number'],
  [/\bnumeric|double precision|real\b/, 'a number'],
  [/\buuid\b/, 'a UUID'],
  [/\btimestamp|date|time\b/, 'an ISO 8601 date or date-time'],
  [/\bjsonb?\b/, 'valid JSON'],
  [/\bboolean\b/, 'true or false'],
  [/\benum\b/, 'one of the accepted values'],
];

/**
 * The request field holding `value` (the text PostgreSQL quotes in its message), searched in the path,
 * query and body: how a database error names the field without showing the database's own words.
 */
function fieldHolding(request: FastifyRequest, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const search = (node: unknown, path: string[]): string | undefined => {
    if (node === null || node === undefined) return undefined;
    if (typeof node !== 'object') return String(node) === value ? path.join('.') : undefined;
    for (const [key, child] of Object.entries(node)) {
      const found = search(child, [...path, key]);
      if (found) return found;
    }
    return undefined;
  };
  return search(request.params, []) || search(request.query, []) || search(request.body, []) || undefined;
}

function quotedValue(message: string): string | undefined {
  return (
    message.match(/"((?:[^"\\]|\\.)*)"\s*$/)?.[1] ?? message.match(/value "([^"]*)" is out of range/)?.[1]
  );
}

function fieldError(field: string | undefined, withField: string, without: string): AppError {
  const message = field ? `${field} ${withField}.` : `${without}.`;
  return new AppError('validation_error', message, { [field ?? 'request']: [message] });
}

/**
 * Maps database errors a client can cause to client errors. Schemas should stop such input before it
 * reaches SQL; this is the safety net, and it never repeats the database's text.
 */
function fromDatabase(error: PgError, request: FastifyRequest | undefined): AppError | undefined {
  if (!isDatabaseError(error)) return undefined;
  const code = error.code;
  const text = error.message ?? '';
  const field = request ? fieldHolding(request, quotedValue(text)) : undefined;
  if (code === '23505') {
    return new AppError('conflict', `A record with the same ${describeConstraint(error)} already exists.`);
  }
  if (code === '23503') {
    return new AppError('validation_error', 'The request refers to a record that does not exist.', {
      reference: ['missing referenced record'],
    });
  }
  if (code === '22003') {
    const type = text.match(/\b(smallint|integer|bigint)\b/)?.[1];
    const range = type ? ` (${INT_RANGES[type]})` : '';
    return fieldError(field, `is out of range${range}`, `A number in the request is out of range${range}`);
  }
  if (code === '22P02' || code === '22007' || code === '22008') {
    const expected = TYPE_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? 'a valid value';
    const what =
      code === '22008' ? 'is not a valid date (out of range)' : `has the wrong format (expected ${expected})`;
    return fieldError(field, what, `A value in the request ${what}`);
  }
  if (code === '22001' || code === '54000') {
    return fieldError(field, 'is too long', 'A value in the request is too long');
  }
  if (code === '22021' || code === '22P05') {
    // NUL characters and invalid code points cannot be stored in text.
    return fieldError(
      field,
      'contains a NUL character or invalid Unicode',
      'A text value contains a NUL character or invalid Unicode',
    );
  }
  // Any other data exception (class 22: division by zero, bad LIMIT/OFFSET, invalid parameter values).
  if (code.startsWith('22'))
    return fieldError(field, 'is not a valid value here', 'A value in the request is not valid here');
  if (code === '57014') {
    return new AppError('service_unavailable', 'The query took too long; narrow it with a filter.');
  }
  return undefined;
}

/** A PostgreSQL error (pg's DatabaseError): a five-character SQLSTATE and a severity. */
function isDatabaseError(error: unknown): error is PgError & { code: string } {
  const candidate = error as PgError & { severity?: unknown };
  return (
    typeof candidate?.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && 'severity' in candidate
  );
}

function describeConstraint(error: PgError): string {
  const match = error.detail?.match(/^Key \((.+?)\)=/);
  return match?.[1] ? match[1].replace(/team_id, ?/, '').replace(/lower\((\w+)\)/g, '$1') : 'identifier';
}

export function toAppError(error: unknown, request?: FastifyRequest): AppError | undefined {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & PgError;
  if (fastifyError.validation) {
    return validationFailure(fastifyError.validation as never, fastifyError.validationContext);
  }
  const fromDb = fromDatabase(fastifyError, request);
  if (fromDb) return fromDb;
  if (fastifyError.code === 'FST_INVALID_JSON_FIELD_ERROR') {
    return new AppError(
      'validation_error',
      'A multipart field sent with Content-Type application/json is not valid JSON.',
    );
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const reason = reasonByStatus.get(status) ?? 'bad_request';
    const message =
      fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Unsupported Content-Type; send application/json (or multipart/form-data for uploads).'
        : fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request body is too large.'
          : fastifyError.message;
    return new AppError(reason, message);
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error, request);
    if (appError && isDatabaseError(error) && /^(22|54)/.test(error.code)) {
      // Bad data reached SQL: a schema let the input through. Answered as a 422, worth a look.
      request.log.warn({ err: error }, `database error answered as ${appError.status}`);
    }
    if (appError && appError.status < 500) return sendError(reply, appError);
    if (appError) {
      request.log.warn({ err: error }, appError.message);
      return sendError(reply, appError);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      reply,
      new AppError('internal_error', `Internal error; quote request id ${request.id} when reporting it.`),
    );
  });
}
