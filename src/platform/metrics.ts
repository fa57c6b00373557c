// Prometheus metrics at GET /metrics: requests by route and status, latency histograms, process metrics, and the
// gauges modules register (read at scrape time). One registry per app, so several apps in one process (tests)
// never mix their counts. CREDENCE_METRICS_TOKEN, when set, guards the route with a bearer token.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestMetrics, type RequestMetrics } from './http-metrics.js';
import { unauthorized } from './errors.js';
import { errorResponses } from './openapi.js';
import type { AppContext } from './context.js';

export interface Metrics {
  registry: Registry;
  /** A gauge whose values are read when Prometheus scrapes (errors are logged, the scrape still answers). */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Promise<{ labels?: Record<string, string | number>; value: number }[]>,
  ): void;
  counter(name: string, help: string, labelNames?: string[]): Counter<string>;
  /** Request count and latency (the onResponse hook, and routes answered before Fastify's router). */
  requests: RequestMetrics;
}

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function registerMetrics(app: FastifyInstance, ctx: AppContext, version: string): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'credence_' });
  new Gauge({
    name: 'credence_build_info',
    help: 'Version of the running service (value 1).',
    labelNames: ['version'],
    registers: [registry],
  }).set({ version }, 1);
  const http = createRequestMetrics(registry, {
    counter: 'credence_http_requests_total',
    counterHelp: 'HTTP requests by method, route and status.',
    histogram: 'credence_http_request_duration_seconds',
    histogramHelp: 'HTTP request latency by method, route and status.',
    buckets: BUCKETS,
  });
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    // unmatched URLs share one label, so scanners cannot blow up the number of series
    http.record(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, (performance.now() - req.startedAt) / 1000);
    done();
  });

  const metrics: Metrics = {
    registry,
    requests: http,
    gauge(name, help, labelNames, read) {
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          try {
            for (const { labels, value } of await read()) {
              if (Number.isFinite(value)) {
                if (labels) this.set(labels, value);
                else this.set(value);
              }
            }
          } catch (err) {
            ctx.log.warn({ err, metric: name }, 'metric collection failed');
          }
        },
      });
    },
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers: [registry] }),
  };

  const token = ctx.config.metricsToken;
  app.get(
    '/metrics',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'health.getMetrics',
        tags: ['Health'],
        summary: 'Prometheus metrics',
        description:
          'Prometheus text exposition: `credence_http_requests_total` and `credence_http_request_duration_seconds` by route and status, ' +
          'score updates, ingestion lag per chain, webhook outbox depth and oldest age, proof queue, sanctions list age, process metrics. ' +
          'When `CREDENCE_METRICS_TOKEN` is set, send `Authorization: Bearer <token>`.',
        security: token ? [{ Bearer: [] }] : [],
        response: {
          200: { description: 'Metrics in the Prometheus text format 0.0.4.', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...(token ? errorResponses(401) : {}),
        },
      },
    },
    async (req, reply) => {
      if (token && !bearerMatches(req.headers.authorization, token))
        throw unauthorized('GET /metrics needs Authorization: Bearer <CREDENCE_METRICS_TOKEN>.');
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
  return metrics;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
