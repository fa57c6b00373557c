// Routes answered before Fastify's router, for the few reads that are both the hottest and fully served from
// memory (a cached score). Such a route takes a request only when it can answer exactly as the Fastify route would
// (same checks through the same functions: API key cache, rate limiter, quota, score cache; same status, headers,
// body, request id, metrics and request log); in every other case — any doubt, any error to report, any other
// method, a query string, a body, a browser origin — it returns false and Fastify handles the request as usual.
// Fastify's own per-request machinery (routing, eight hooks, validation, the reply object) is what it saves: about
// a third of the cost of a cached read (bench/reputation.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RequestMetrics } from '../http-metrics.js';
import { requestIdOf } from './request-id.js';

export interface FastAnswer {
  /** the route's pattern, as Fastify labels it in metrics */
  route: string;
  status: number;
  /** lower-case names; content-length, x-request-id and x-response-time are added here */
  headers: Record<string, string | number>;
  body: string;
  /** Buffer.byteLength(body), when the route keeps it with the body */
  bodyBytes?: number;
}

/**
 * true: the route took the request (it will call paths.send or paths.fallback); false: not for it, nothing done.
 * Called for every GET, so it allocates nothing before it knows the request is its own.
 */
export type FastRoute = (req: IncomingMessage, res: ServerResponse, startedAt: number) => boolean;

export interface FastPaths {
  add(route: FastRoute): void;
  send(req: IncomingMessage, res: ServerResponse, startedAt: number, answer: FastAnswer): void;
  /** Hands a request a fast route took to Fastify (to be answered the usual way, e.g. with an error). */
  fallback(req: IncomingMessage, res: ServerResponse): void;
  /** requests answered here since start (tests and diagnostics) */
  readonly served: number;
}

export function installFastPaths(
  app: FastifyInstance,
  opts: { metrics: RequestMetrics; log: FastifyBaseLogger; trustProxy: unknown },
): FastPaths {
  const server = app.server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length !== 1) throw new Error('fast paths: expected Fastify to be the only request listener');
  const fastify = listeners[0];
  const routes: FastRoute[] = [];
  let closing = false;
  // Fastify answers 503 while closing (return503OnClosing): leave those to it.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Request logs at debug, as the app writes them (app.ts); the client address is the socket's (a proxy's forwarded address
  // needs Fastify's trust-proxy handling, so with both on, Fastify serves these requests).
  const log = opts.log as FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };
  const logRequests = () => log.isLevelEnabled?.('debug') ?? false;
  const usable = () => !closing && !(opts.trustProxy && logRequests());

  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (routes.length === 0 || req.method !== 'GET' || !usable()) return fastify(req, res);
    const startedAt = performance.now();
    for (const r of routes) if (r(req, res, startedAt)) return;
    fastify(req, res);
  });

  function answer(req: IncomingMessage, res: ServerResponse, startedAt: number, a: FastAnswer) {
    const id = requestIdOf(req);
    const reqLog = logRequests() ? opts.log.child({ reqId: id }) : null;
    reqLog?.debug(
      { req: { method: req.method, url: req.url, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket } },
      'incoming request',
    );
    const headers = a.headers;
    headers['x-response-time'] = (performance.now() - startedAt).toFixed(3);
    headers['x-request-id'] = id;
    headers['content-length'] = a.bodyBytes ?? Buffer.byteLength(a.body);
    res.writeHead(a.status, headers);
    res.end(a.body);
    paths.served++;
    const seconds = (performance.now() - startedAt) / 1000;
    opts.metrics.record('GET', a.route, a.status, seconds);
    reqLog?.debug({ res: { statusCode: a.status }, responseTime: seconds * 1000 }, 'request completed');
  }

  const paths = { add: (r: FastRoute) => void routes.push(r), send: answer, fallback: fastify, served: 0 };
  return paths;
}
