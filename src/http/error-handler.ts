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

/** Maps database errors a client can cause to client errors. */
function fromDatabase(error: PgError): AppError | undefined {
  switch (error.code) {
    case '23505':
      return new AppError('conflict', `A record with the same ${describeConstraint(error)} already exists.`);
    case '23503':
      return new AppError('validation_error', 'The request refers to a record that does not exist.', {
        reference: [error.detail ?? 'missing referenced record'],
      });
    case '22P02':
    case '22007':
    case '22008':
      return new AppError('validation_error', `A value has the wrong format: ${error.message}`);
    case '22001':
      return new AppError('validation_error', 'A value is too long.');
    case '22021':
    case '22P05':
      // NUL characters and invalid code points cannot be stored in text.
      return new AppError('validation_error', 'A text value contains a NUL character or invalid Unicode.');
    case '57014':
      return new AppError('service_unavailable', 'The query took too long; narrow it with a filter.');
    default:
      return undefined;
  }
}

function describeConstraint(error: PgError): string {
  const match = error.detail?.match(/^Key \((.+?)\)=/);
  return match?.[1] ? match[1].replace(/team_id, ?/, '').replace(/lower\((\w+)\)/g, '$1') : 'identifier';
}

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & PgError;
  if (fastifyError.validation) {
    return validationFailure(fastifyError.validation as never, fastifyError.validationContext);
  }
  const fromDb = fromDatabase(fastifyError);
  if (fromDb) return fromDb;
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
    const appError = toAppError(error);
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
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
