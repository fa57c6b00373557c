// Maps every failure to the one error body: AppErrors, schema validation, body parsing, unknown routes.
// Unknown errors become 500 `internal` with nothing internal in the body; they are logged with the request id.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type FieldError } from '../errors.js';
import { ADDRESS_MESSAGE, ADDRESS_OR_ENS_MESSAGE } from './schemas.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldName(e: AjvError, context: string | undefined): string {
  let path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join('')
    .replace(/^\./, '');
  if (e.keyword === 'required') path = path ? `${path}.${e.params.missingProperty}` : String(e.params.missingProperty);
  if (!path) return context === 'body' || !context ? 'body' : context;
  return path;
}

function message(e: AjvError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'minLength':
      return `must be at least ${p.limit} characters`;
    case 'maxLength':
      return `must be at most ${p.limit} characters`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'maxItems':
      return `must have at most ${p.limit} items`;
    case 'minItems':
      return `must have at least ${p.limit} items`;
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'type':
      return `must be ${p.type === 'integer' ? 'an integer' : `of type ${p.type}`}`;
    case 'format':
      if (p.format === 'eth-address') return ADDRESS_MESSAGE;
      if (p.format === 'eth-address-or-ens') return ADDRESS_OR_ENS_MESSAGE;
      if (p.format === 'uuid') return 'must be a GUID';
      if (p.format === 'email') return 'must be a valid email address';
      if (p.format === 'uri') return 'must be a valid URL';
      return `must be a valid ${p.format}`;
    case 'pattern':
      return `has an invalid format (expected ${p.pattern})`;
    default:
      return e.message ?? 'is invalid';
  }
}

function dedupe(fields: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const k = `${f.field}\u0000${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'invalid_state',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'proof_unsatisfiable',
  429: 'rate_limited',
  502: 'upstream_unavailable',
  503: 'unavailable',
};

/** What the server reads and throws away of an oversized body before answering 413 (bytes, and time). */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 5_000;

/**
 * 413 only once the client has finished sending (up to a bound): answering while it is still writing makes the
 * socket close under it, and the client sees a connection reset instead of the 413. Past the bound the
 * connection is closed after the answer.
 */
function tooLarge(req: FastifyRequest, reply: FastifyReply) {
  const raw = req.raw;
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    clearTimeout(timer);
    raw.removeListener('data', onData);
    raw.removeListener('end', send);
    raw.removeListener('error', send);
    reply.code(413).header('connection', 'close').send({ error: 'payload_too_large', details: 'The request body is too large.' });
  };
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) send();
  };
  const timer = setTimeout(send, DRAIN_MS);
  timer.unref();
  if (raw.readableEnded || raw.complete) {
    send();
    return reply;
  }
  raw.on('data', onData);
  raw.once('end', send);
  raw.once('error', send);
  raw.resume();
  return reply;
}

/** The field errors of a failed schema validation, as every validation error body lists them. */
export function schemaFieldErrors(errors: unknown, context: string | undefined): FieldError[] {
  return dedupe(
    (errors as AjvError[])
      .filter((e) => !['anyOf', 'oneOf', 'if'].includes(e.keyword))
      .map((e) => ({ field: fieldName(e, context), message: message(e) })),
  );
}

/** The 414 details: how long the URL was and the limit, never the URL itself. */
export const uriTooLong = (length: number) =>
  `The request URL is too long (${length.toLocaleString('en-US')} characters); a path parameter may have at most 1,000 characters and the whole request line at most 16 KB.`;

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) req.log.error({ err }, err.details);
      for (const [k, v] of Object.entries(err.extra.headers ?? {})) reply.header(k, v);
      return reply.code(err.statusCode).send(err.body());
    }
    if (err.validation) {
      const fields = schemaFieldErrors(err.validation, err.validationContext);
      const details = fields.length ? `Invalid request: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}.` : 'Invalid request.';
      return reply.code(400).send({ error: 'validation_failed', details, fields });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply
          .code(415)
          .send({ error: 'unsupported_media_type', details: 'The request body must be JSON (Content-Type: application/json).' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return tooLarge(req, reply);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply
          .code(400)
          .send({ error: 'validation_failed', details: 'The JSON body is empty.', fields: [{ field: 'body', message: 'is required' }] });
    }
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({
        error: 'validation_failed',
        details: 'The request body is not valid JSON.',
        fields: [{ field: 'body', message: 'must be valid JSON' }],
      });
    }
    const status = err.statusCode ?? 500;
    // the router's answer to an over-long path parameter: its message quotes the whole URL, never echoed back
    if (status === 414) return reply.code(414).send({ error: 'uri_too_long', details: uriTooLong(req.url.length) });
    if (status >= 400 && status < 500 && BY_STATUS[status]) {
      return reply.code(status).send({ error: BY_STATUS[status], details: err.message });
    }
    req.log.error({ err, reqId: req.id }, 'unhandled error');
    return reply.code(500).send({ error: 'internal', details: `An internal error occurred (request ${req.id}).` });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // a long path is named by its start only (a 5,000-character URL is not echoed back)
    reply.code(404).send({
      error: 'not_found',
      details: `No route ${req.method} ${path.length > 200 ? `${path.slice(0, 200)}… (${path.length.toLocaleString('en-US')} characters)` : path}.`,
    });
  });
}
