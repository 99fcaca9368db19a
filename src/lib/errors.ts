// One error type for the whole service and the closed list of reasons it can carry. The HTTP layer
// turns it into the wire shape {"error":{"reason","message","data"},"message","code"}.

export const errorReasons = {
  bad_request: 400,
  auth_exception: 401,
  payment_required: 402,
  access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  validation_error: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorReason = keyof typeof errorReasons;

/** Field path → messages, as Laravel-style clients expect for validation errors. */
export type ErrorData = Record<string, unknown>;

export class AppError extends Error {
  readonly reason: ErrorReason;
  readonly status: number;
  readonly data: ErrorData;

  constructor(reason: ErrorReason, message: string, data: ErrorData = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.reason = reason;
    this.status = errorReasons[reason];
    this.data = data;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** A 422 about one field: the message names it and the data maps it to the message. */
export function invalidField(field: string, message: string): AppError {
  return new AppError('validation_error', message, { [field]: [message] });
}

export function badRequest(message: string, data: ErrorData = {}): AppError {
  return new AppError('bad_request', message, data);
}

export function conflict(message: string, data: ErrorData = {}): AppError {
  return new AppError('conflict', message, data);
}
