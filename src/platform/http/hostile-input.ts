// Hostile input that gets past the schemas or never reaches them:
// - text PostgreSQL cannot store (NUL) or UTF-8 cannot encode (lone surrogates), anywhere in a body, query or
//   path parameter, object keys included: 400 validation_failed naming the field, never a 500 from the driver;
// - errors raised before routing: bad percent-encoding (framework errors) and whatever the HTTP parser refuses
//   (malformed requests, over-long URLs, over-large headers): answered in the {error, details} body;
// - `Upgrade:` requests that are not WebSockets (h2c, ...): served as the plain HTTP/1.1 requests they also are;
// - per-client caps on open HTTP connections and on WebSockets (CREDENCE_MAX_CONNECTIONS_PER_CLIENT,
//   CREDENCE_MAX_WEBSOCKETS_PER_CLIENT), counted per TCP peer address.
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, type FieldError } from '../errors.js';
import { schemaFieldErrors, uriTooLong } from './error-handler.js';

// eslint-disable-next-line no-control-regex
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_DEPTH = 64;

// Any NUL or surrogate at all: a cheap scan with no paths built, so the common request (none) costs next to nothing
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
/**
 * Parsed data only: arrays and plain objects (JSON bodies, and query objects, whose prototype has a null prototype).
 * Anything else is left alone: a streamed body is the request stream itself (socket, parser, server: a cyclic graph
 * that walking froze the process), and buffers, dates and class instances hold no client text to check.
 */
function isData(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

function suspect(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return SUSPECT.test(v);
  if (!v || typeof v !== 'object' || depth > MAX_DEPTH || !isData(v)) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (suspect(x, depth + 1)) return true;
    return false;
  }
  for (const k in v) if (SUSPECT.test(k) || suspect((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** Every field whose text (or key) holds a NUL or a lone surrogate, as `a.b[2].c`. */
export function badTextFields(v: unknown, path = '', out: FieldError[] = [], depth = 0): FieldError[] {
  if (out.length >= 20 || depth > MAX_DEPTH) return out;
  if (typeof v === 'string') {
    if (BAD_TEXT.test(v)) out.push({ field: path || 'body', message: 'must not contain NUL characters or unpaired UTF-16 surrogates' });
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => badTextFields(x, `${path}[${i}]`, out, depth + 1));
  } else if (v && typeof v === 'object' && isData(v)) {
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (BAD_TEXT.test(k))
        out.push({ field: p.replace(BAD_TEXT, '?'), message: 'field names must not contain NUL characters or unpaired UTF-16 surrogates' });
      else badTextFields(x, p, out, depth + 1);
    }
  }
  return out;
}

function json(status: number, reason: string, error: string, details: string, extra = ''): string {
  const body = JSON.stringify({ error, details });
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
}

/** Fastify constructor options: the parser's and the router's errors in the documented body. */
export function hardenedServerOptions() {
  return {
    // Bad percent-encoding in the path (`/%ZZ`) and similar router failures.
    frameworkErrors: (err: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      // a path parameter over the router's limit (maxParamLength): its own code, and the URL (its message) never echoed
      if (status === 414) return reply.code(414).send({ error: 'uri_too_long', details: uriTooLong(_req.raw.url?.length ?? 0) });
      const m = err.message.length > 300 ? `${err.message.slice(0, 300)}…` : err.message;
      reply.code(status).send({ error: 'validation_failed', details: `The request URL is not valid: ${m}` });
    },
    // What Node's HTTP parser refuses never reaches Fastify's handlers: answer it here, in the same format.
    clientErrorHandler: (err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket) => {
      if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      let msg: string;
      if (err.code === 'HPE_HEADER_OVERFLOW')
        msg = json(431, 'Request Header Fields Too Large', 'validation_failed', 'The request line or headers are too large.');
      else if (err.code === 'HPE_URI_TOO_LONG')
        msg = json(414, 'URI Too Long', 'uri_too_long', 'The request URL is too long: the whole request line may be at most 16 KB.');
      else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT')
        msg = json(408, 'Request Timeout', 'validation_failed', 'The request was not received in time.');
      else msg = json(400, 'Bad Request', 'validation_failed', `Malformed HTTP request (${err.code ?? 'parse error'}).`);
      socket.end(msg);
    },
  };
}

export interface ConnectionCaps {
  maxConnectionsPerClient: number;
  maxWebSocketsPerClient: number;
}

const isWebSocket = (req: IncomingMessage) => /^websocket$/i.test(req.headers.upgrade ?? '');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's checks a schema cannot make (run by its handler), so a NUL elsewhere does not hide them. */
    fieldChecks?: (body: Record<string, unknown>) => FieldError[];
  }
}

export function registerHostileInput(app: FastifyInstance, caps: ConnectionCaps) {
  app.addHook('preValidation', (req, _reply, done) => {
    if (!suspect(req.params) && !suspect(req.query) && !suspect(req.body)) return done();
    const fields = [
      ...badTextFields(req.params as unknown),
      ...badTextFields(req.query as unknown),
      ...(typeof req.body === 'object' ? badTextFields(req.body) : typeof req.body === 'string' ? badTextFields(req.body, 'body') : []),
    ];
    if (!fields.length) return done();
    // The schema's findings on the other fields too: one answer names every offending field.
    const named = new Set(fields.map((f) => f.field));
    for (const part of ['params', 'querystring', 'body'] as const) {
      const validate = req.getValidationFunction(part) as (((data: unknown) => boolean) & { errors?: unknown }) | undefined;
      const data = part === 'params' ? req.params : part === 'querystring' ? req.query : req.body;
      if (!validate || validate(data) || !validate.errors) continue;
      for (const f of schemaFieldErrors(validate.errors, part))
        if (!named.has(f.field)) {
          named.add(f.field);
          fields.push(f);
        }
    }
    const checks = req.routeOptions.config.fieldChecks;
    if (checks && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
      for (const f of checks(req.body as Record<string, unknown>))
        if (!named.has(f.field)) {
          named.add(f.field);
          fields.push(f);
        }
    }
    done(badRequest(`Invalid request: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}.`, fields));
  });

  const server = app.server;
  const open = new Map<string, number>();
  const sockets = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string, d: number) => {
    const n = (m.get(k) ?? 0) + d;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
    return n;
  };

  /** Counts the client's socket in `m` until it closes; past `cap` (0: none) it is answered 429 `message` and ended. */
  const countOrRefuse = (m: Map<string, number>, socket: Socket, cap: number, message: string) => {
    const ip = socket.remoteAddress ?? '?';
    const n = bump(m, ip, 1);
    socket.once('close', () => bump(m, ip, -1));
    if (cap > 0 && n > cap) {
      socket.on('error', () => socket.destroy());
      socket.end(json(429, 'Too Many Requests', 'rate_limited', message, 'Retry-After: 1\r\n'));
    }
  };

  // Connections past the cap get a 429 and are closed; their slot is counted until they close.
  const onConnection = (socket: Socket) => {
    const cap = caps.maxConnectionsPerClient;
    countOrRefuse(open, socket, cap, `Too many open connections from this client (at most ${cap}); close idle ones.`);
  };
  server.on('connection', onConnection);

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isWebSocket(req)) {
      // The WebSocket owner (the hub) sees an ended socket and lets it go.
      const cap = caps.maxWebSocketsPerClient;
      countOrRefuse(sockets, socket as Socket, cap, `Too many WebSocket connections from this client (at most ${cap}).`);
      return;
    }
    serveAsHttp(server, req, socket as Socket, head);
  };
  // Registered before any module's listener, so a refused WebSocket is ended before its owner looks at it.
  server.prependListener('upgrade', onUpgrade);
  app.addHook('onClose', async () => {
    server.off('connection', onConnection);
    server.off('upgrade', onUpgrade);
  });
}

/**
 * Node hands every request with an `Upgrade` header to the upgrade listeners, body unread. One that is not a
 * WebSocket (h2c, ...) is an ordinary HTTP/1.1 request the server may answer as such (RFC 9110, 7.8): rebuild it
 * as a fresh request, feed it its body, and let the app answer it on the same socket.
 */
function serveAsHttp(server: http.Server, orig: IncomingMessage, socket: Socket, head: Buffer) {
  socket.on('error', () => socket.destroy());
  if (orig.headers['transfer-encoding']) {
    socket.end(
      json(
        400,
        'Bad Request',
        'validation_failed',
        'Upgrade requests with a chunked body are not supported; send the request without Upgrade.',
      ),
    );
    return;
  }
  const req = new http.IncomingMessage(socket);
  Object.assign(req, {
    method: orig.method,
    url: orig.url,
    headers: { ...orig.headers, connection: 'close' },
    rawHeaders: orig.rawHeaders,
    httpVersion: orig.httpVersion,
    httpVersionMajor: orig.httpVersionMajor,
    httpVersionMinor: orig.httpVersionMinor,
  });
  delete req.headers.upgrade;
  const res = new http.ServerResponse(req);
  res.assignSocket(socket);
  res.shouldKeepAlive = false;
  res.on('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  const length = Number(orig.headers['content-length'] ?? 0);
  let got = 0;
  const feed = (d: Buffer) => {
    const part = d.subarray(0, length - got);
    got += part.length;
    req.push(part);
    if (got >= length) {
      socket.off('data', feed);
      // complete: an ended request that is not complete counts as aborted and takes the socket down with it
      req.complete = true;
      req.push(null);
    }
  };
  if (Number.isFinite(length) && length > 0) {
    if (head.length) feed(head);
    if (got < length) socket.on('data', feed);
  } else {
    req.complete = true;
    req.push(null);
  }
  server.emit('request', req, res);
}
