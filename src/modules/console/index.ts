// Serves the web console's built files from the same origin: `/` the landing page, `/console` and its routes the
// single-page app (any /console path that is not a file gets its index.html), `/console/assets/*` the hashed
// bundles. Only files: the console talks to the API through the SDK like any integrator's front end.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Module } from '../../platform/http/types.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DIR, loadFiles, type StaticFile } from './files.js';

/** Only this origin's scripts, styles, connections (the API, the hub's WebSocket) and images; no framing. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

function send(req: FastifyRequest, reply: FastifyReply, file: StaticFile, cacheControl: string) {
  reply
    .header('content-type', file.type)
    .header('cache-control', cacheControl)
    .header('etag', file.etag)
    .header('vary', 'accept-encoding')
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === file.etag)) return reply.code(304).send();
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (file.gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

export const consoleModule: Module = {
  name: 'console',
  register(app) {
    if (!existsSync(path.join(DEFAULT_DIR, 'index.html'))) {
      app.log.warn('console/dist not found: / and /console are not served (run `npm run build:console`)');
      return;
    }
    // read and compressed on the first page view, not at every start (an API-only instance never serves one)
    let loaded: Map<string, StaticFile> | undefined;
    const all = () => (loaded ??= loadFiles() ?? new Map());
    const files = { get: (rel: string) => all().get(rel) };
    const index = () => files.get('index.html')!;
    const landing = () => files.get('landing.html') ?? index();
    // HTML revalidates every time (it names the current bundles); hashed assets never change.
    const html = 'no-cache';
    const opts = { schema: { hide: true }, config: { auth: 'none' as const } };

    app.get('/', opts, (req, reply) => send(req, reply, landing(), html));
    app.get('/console', opts, (req, reply) => send(req, reply, index(), html));
    app.get('/console/*', opts, (req, reply) => {
      const rel = (req.params as { '*': string })['*'];
      const file = files.get(rel);
      if (file && rel !== 'landing.html') return send(req, reply, file, rel.startsWith('assets/') ? IMMUTABLE : html);
      // A missing asset is a 404 (a stale page asking for an old bundle must not get HTML as JavaScript).
      if (rel.startsWith('assets/') || /\.[a-z0-9]+$/i.test(rel)) {
        return reply.code(404).send({ error: 'not_found', details: `No file /console/${rel}.` });
      }
      return send(req, reply, index(), html);
    });
  },
};
