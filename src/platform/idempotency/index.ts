// Idempotency-Key on creating POSTs, with Stripe's semantics: the same key with the same request replays the
// first response (marked `Idempotent-Replayed: true`), with another request gets 422, and while the first is
// still running a duplicate waits for it (then 409 if it is still running). Keys are scoped to the caller (API
// key, else JWT subject, else client IP) and kept 24 hours in PostgreSQL, so a retry reaching another instance
// is recognised too. A route opts in with `config: { idempotent: true }`; the header, its errors and the
// replay header then appear in its OpenAPI operation.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, preHandlerHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { createIdempotencyStore, KEEP_HOURS, type IdempotencyStore } from './store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour an Idempotency-Key header (creating POSTs). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 10_000;
/** Headers a replay repeats (rate-limit and timing headers belong to the new request). */
const KEPT_HEADERS = ['content-type', 'location', 'cache-control'];

/** Same JSON whatever the order of object keys, so a client re-serializing its body still matches. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, val) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(
          Object.keys(val as object)
            .sort()
            .map((k) => [k, (val as Record<string, unknown>)[k]]),
        )
      : val,
  );
}

function scopeOf(req: FastifyRequest): string {
  // test requests keep their own keys: a test retry never replays a live answer, nor a live one a test answer
  const env = req.environment === 'test' ? 'test:' : '';
  if (req.apiKey) return `${env}key:${req.apiKey.keyId}`;
  if (req.user) return `${env}sub:${req.user.address}`;
  return `${env}ip:${req.ip}`;
}

function replay(reply: FastifyReply, r: { status: number; headers: Record<string, string>; body: string }) {
  for (const [k, v] of Object.entries(r.headers)) reply.header(k, v);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.code(r.status).send(r.body);
}

const ERROR_NOTES: Record<string, string> = {
  409: 'A request with the same Idempotency-Key is still being processed (`idempotency_key_in_use`).',
  422: 'The Idempotency-Key was already used with another request (`idempotency_key_reused`).',
};

const headerDoc = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  description:
    `Makes a retry safe (Stripe's semantics): the same key with the same request replays the first successful answer (header ${REPLAYED_HEADER}: true) ` +
    `instead of creating again; with another request it gets 422 idempotency_key_reused; while the first is running a duplicate waits, then 409 idempotency_key_in_use. ` +
    `Keys are scoped to the caller (API key, JWT subject, or client IP) and kept ${KEEP_HOURS} hours. An error answer releases the key.`,
};

export function registerIdempotency(app: FastifyInstance, ctx: Pick<AppContext, 'db' | 'cipher' | 'log'>) {
  const store: IdempotencyStore = createIdempotencyStore(ctx.db, ctx.cipher);

  const before: preHandlerHookHandler = async (req, reply) => {
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (typeof key !== 'string') return;
    const scope = scopeOf(req);
    const hash = createHash('sha256')
      .update(`${req.method} ${req.url}\n${canonical(req.body ?? null)}`)
      .digest('hex');
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const c = await store.claim(scope, key, hash);
      if (c.kind === 'owner') {
        req.idempotency = { scope, key };
        return;
      }
      if (c.kind === 'done') return replay(reply, c.response);
      if (c.kind === 'mismatch') {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with another request (method, path or body); use a new key for a new request.',
        );
      }
      if (Date.now() > deadline)
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later.');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const after = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const held = req.idempotency;
    if (!held) return payload;
    req.idempotency = undefined;
    try {
      const status = reply.statusCode;
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      if (status >= 200 && status < 300 && body !== null) {
        const headers: Record<string, string> = {};
        for (const h of KEPT_HEADERS) {
          const v = reply.getHeader(h);
          if (v !== undefined) headers[h] = String(v);
        }
        await store.complete(held.scope, held.key, { status, headers, body });
      } else {
        await store.release(held.scope, held.key);
      }
    } catch (err) {
      // The answer still goes out; the key stays pending until its lock lapses, then a retry runs again.
      ctx.log.error({ err }, 'idempotency record not saved');
    }
    return payload;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.idempotent) return;
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    schema.headers = { ...headers, type: 'object', properties: { ...(headers.properties ?? {}), [IDEMPOTENCY_HEADER]: headerDoc } };
    const response = (schema.response ??= {}) as Record<string, unknown>;
    for (const [code, note] of Object.entries(ERROR_NOTES)) {
      const existing = response[code] as { description?: string } | undefined;
      const base = (existing ?? (errorResponses(Number(code)) as Record<string, { description?: string }>)[code]) as {
        description?: string;
      };
      response[code] = { ...base, description: existing?.description ? `${existing.description} ${note}` : note };
    }
    route.preHandler = [before, ...toArray(route.preHandler)];
    route.onSend = [...toArray(route.onSend), after as never];
  });
}

function toArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
