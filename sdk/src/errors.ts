// Errors as classes, as Stripe's SDK has them: one base class carrying the service's `{error, details, fields}`
// body, the HTTP status and the request id, and one subclass per error code family, so callers can write
// `if (e instanceof RateLimitError) ...` or switch on `e.code`.

export interface FieldProblem {
  field: string;
  message: string;
}

export class CredenceError extends Error {
  override name = 'CredenceError';
  /** the service's error code: validation_failed, unauthorized, forbidden, not_found, rate_limited, ... */
  readonly code: string;
  /** the service's human sentence */
  readonly details: string;
  /** every offending field (validation errors only) */
  readonly fields: FieldProblem[];
  /** HTTP status; 0 when no answer arrived (time-out, connection error) */
  readonly status: number;
  /** X-Request-Id of the answer: quote it when you contact support */
  readonly requestId: string | null;
  /** Retry-After in seconds, when the answer carried one */
  readonly retryAfter: number | null;

  constructor(o: {
    code: string;
    details: string;
    status: number;
    fields?: FieldProblem[];
    requestId?: string | null;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(
      `${o.code}: ${o.details}${o.requestId ? ` (request ${o.requestId})` : ''}`,
      o.cause === undefined ? undefined : { cause: o.cause },
    );
    this.code = o.code;
    this.details = o.details;
    this.fields = o.fields ?? [];
    this.status = o.status;
    this.requestId = o.requestId ?? null;
    this.retryAfter = o.retryAfter ?? null;
  }
}

/** 400 validation_failed: `fields` names every offending field. */
export class ValidationError extends CredenceError {
  override name = 'ValidationError';
}
/** 401: missing or bad API key, JWT or SIWE signature. */
export class AuthenticationError extends CredenceError {
  override name = 'AuthenticationError';
}
/** 403: authenticated but not allowed (tier, ownership, not admin, test key). */
export class PermissionError extends CredenceError {
  override name = 'PermissionError';
}
/** 404: unknown record. */
export class NotFoundError extends CredenceError {
  override name = 'NotFoundError';
}
/** 409: a transition the state machine forbids. */
export class ConflictError extends CredenceError {
  override name = 'ConflictError';
}
/** 422: the statement to prove is false, or an Idempotency-Key reused with another body. */
export class UnprocessableError extends CredenceError {
  override name = 'UnprocessableError';
}
/** 429: per-second rate limit or monthly quota; `retryAfter` says how long to wait. */
export class RateLimitError extends CredenceError {
  override name = 'RateLimitError';
}
/** 502 / 503: an upstream provider failed or a dependency is not ready. */
export class UnavailableError extends CredenceError {
  override name = 'UnavailableError';
}
/** No answer within the time-out. */
export class TimeoutError extends CredenceError {
  override name = 'TimeoutError';
}
/** The connection failed (refused, reset, DNS). */
export class ConnectionError extends CredenceError {
  override name = 'ConnectionError';
}

const BY_STATUS: Record<number, typeof CredenceError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableError,
  429: RateLimitError,
  502: UnavailableError,
  503: UnavailableError,
};

/** The error class instance for an answer that is not 2xx (body: the parsed JSON, if any). */
export function errorFromResponse(response: Response, body: unknown): CredenceError {
  const b = (body && typeof body === 'object' ? body : {}) as { error?: unknown; details?: unknown; fields?: unknown };
  const retry = Number(response.headers.get('retry-after'));
  const Class = BY_STATUS[response.status] ?? CredenceError;
  return new Class({
    code: typeof b.error === 'string' ? b.error : `http_${response.status}`,
    details: typeof b.details === 'string' ? b.details : response.statusText || `HTTP ${response.status}`,
    fields: Array.isArray(b.fields) ? (b.fields as FieldProblem[]) : [],
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    retryAfter: Number.isFinite(retry) && response.headers.has('retry-after') ? retry : null,
  });
}

/**
 * The data of an openapi-fetch answer, or its error thrown as a CredenceError:
 * `const score = await unwrap(credence.GET('/api/v1/reputation/{address}', {...}))`.
 */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok) return data as D;
  throw errorFromResponse(response, error);
}
