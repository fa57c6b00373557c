// One error family for the whole service, mapped to status codes in one place.
// Body on the wire: {error, details} plus `fields` on validation errors (decisions.md, "Wire conventions").

export type ErrorCode =
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_state'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'payload_too_large'
  // the request URL (or one of its path parameters) is longer than the server reads (its own code, not validation_failed)
  | 'uri_too_long'
  | 'unsupported_media_type'
  | 'proof_unsatisfiable'
  | 'upstream_unavailable'
  | 'unavailable'
  | 'internal'
  // Idempotency-Key (Stripe's semantics): the key was used with another request; the first is still running.
  | 'idempotency_key_reused'
  | 'idempotency_key_in_use';

export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_state: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  proof_unsatisfiable: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal: 500,
  upstream_unavailable: 502,
  unavailable: 503,
  idempotency_key_reused: 422,
  idempotency_key_in_use: 409,
};

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly details: string,
    readonly extra: { fields?: FieldError[]; headers?: Record<string, string | number> } = {},
  ) {
    super(details);
    this.statusCode = STATUS_OF[code];
  }

  body(): { error: ErrorCode; details: string; fields?: FieldError[] } {
    return this.extra.fields
      ? { error: this.code, details: this.details, fields: this.extra.fields }
      : { error: this.code, details: this.details };
  }
}

export const badRequest = (details: string, fields?: FieldError[]) => new AppError('validation_failed', details, { fields });
export const fieldError = (field: string, message: string) =>
  new AppError('validation_failed', `${field} ${message}`, { fields: [{ field, message }] });
export const unauthorized = (details = 'Missing or invalid credentials.') => new AppError('unauthorized', details);
export const forbidden = (details: string) => new AppError('forbidden', details);
export const notFound = (details: string) => new AppError('not_found', details);
export const invalidState = (details: string) => new AppError('invalid_state', details);
export const unavailable = (details: string) => new AppError('unavailable', details);
export const upstream = (details: string) => new AppError('upstream_unavailable', details);
