// HTTP side of the hub: POST /hubs/scores/negotiate (with CORS for browsers) and the WebSocket upgrade on the
// same server, with `?id=<connectionToken>` from negotiate or without it (skipNegotiation).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import { hashApiKey } from '../../platform/auth/api-key.js';
import { mixedEnvironments } from '../../platform/auth/plugin.js';
import { unauthorized } from '../../platform/errors.js';
import { errorResponses } from '../../platform/openapi.js';
import type { Hub } from './hub.js';
import type { TokenSigner } from './token.js';

export const HUB_PATH = '/hubs/scores';

const NegotiateResponse = Type.Object({
  negotiateVersion: Type.Integer(),
  connectionId: Type.String(),
  connectionToken: Type.Optional(Type.String({ description: 'pass as ?id= on the WebSocket (negotiate version 1)' })),
  availableTransports: Type.Array(Type.Object({ transport: Type.String(), transferFormats: Type.Array(Type.String()) })),
});

const ALLOWED_HEADERS = 'authorization, content-type, x-api-key, x-requested-with, x-signalr-user-agent';

function cors(req: FastifyRequest, reply: FastifyReply) {
  const origin = req.headers.origin;
  if (!origin) return;
  // The browser client sends credentials by default, which rules out `*`: the origin is echoed.
  reply.header('Access-Control-Allow-Origin', origin);
  reply.header('Access-Control-Allow-Credentials', 'true');
  reply.header('Vary', 'Origin');
}

/** Every credential a hub client presents: access_token query (browsers), X-API-Key, or Authorization: Bearer (Node client). */
function presentedCredentials(headers: IncomingMessage['headers'], query: URLSearchParams): string[] {
  const out: string[] = [];
  const q = query.get('access_token');
  if (q) out.push(q);
  const h = headers['x-api-key'];
  if (typeof h === 'string' && h) out.push(h);
  const m = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  if (m) out.push(m[1]);
  return out;
}

/** A JWT (three base64url parts) rather than an API key (cred_live_/cred_test_ and base62, no dots). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

interface HubCredential {
  /** the API key's id (null for a sign-in JWT) */
  keyId: string | null;
  /** test for a cred_test_ key or a JWT signed in for the test environment: the connection gets test events only */
  environment: 'live' | 'test';
}

export function registerHubRoutes(app: App, ctx: AppContext, hub: Hub, tokens: TokenSigner) {
  /**
   * The credentials a client presents: none (null: an anonymous live connection, unless the hub requires a key), an
   * API key or a sign-in JWT. One presented but not valid is refused (401) rather than taken for anonymous, so a
   * mistyped test key never ends up receiving live events.
   */
  async function credentialOf(headers: IncomingMessage['headers'], query: URLSearchParams): Promise<HubCredential | null> {
    // every credential sent counts; as on the HTTP routes, a key and a sign-in of different environments are refused
    const presented = [...new Set(presentedCredentials(headers, query))];
    if (presented.length === 0) return null;
    const cred: HubCredential = { keyId: null, environment: 'live' };
    const seen: { key?: 'live' | 'test'; token?: 'live' | 'test' } = {};
    for (const c of presented) {
      if (JWT_SHAPE.test(c)) {
        const user = await ctx.jwt.verify(c);
        if (!user) throw unauthorized('The hub credential is not a valid API key or sign-in token (it may have expired): sign in again.');
        if (user.environment === 'test') cred.environment = 'test';
        seen.token ??= user.environment;
        if (seen.key && seen.key !== user.environment) throw mixedEnvironments(seen.key, user.environment);
        continue;
      }
      const p = await ctx.apiKeys.resolve(hashApiKey(c));
      if (!p || (p.expiresAt != null && p.expiresAt <= Date.now())) throw unauthorized('The API key given to the hub is not valid.');
      cred.keyId ??= p.keyId;
      if (p.environment === 'test') cred.environment = 'test';
      const keyEnv = p.environment ?? 'live';
      seen.key ??= keyEnv;
      if (seen.token && seen.token !== keyEnv) throw mixedEnvironments(keyEnv, seen.token);
    }
    return cred;
  }

  app.register(async (s) => {
    // The SignalR client POSTs negotiate with no body (or a text one): accept any content type here.
    s.removeAllContentTypeParsers();
    s.addContentTypeParser('*', { parseAs: 'string' }, (_req, _body, done) => done(null, undefined));

    s.options(`${HUB_PATH}/negotiate`, { schema: { hide: true }, config: { auth: 'none' } }, async (req, reply) => {
      cors(req, reply);
      reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS');
      reply.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? ALLOWED_HEADERS);
      reply.header('Access-Control-Max-Age', '600');
      return reply.code(204).send();
    });

    s.post(
      `${HUB_PATH}/negotiate`,
      {
        schema: {
          operationId: 'hub.negotiate',
          tags: ['Hub'],
          summary: 'SignalR negotiate for the scores hub',
          description:
            'Step one of the ASP.NET Core SignalR connection (the official `@microsoft/signalr` client does it for you): answers a connection ' +
            'token and the WebSockets transport (JSON text). Then open `ws(s)://<host>/hubs/scores?id=<connectionToken>` (or connect ' +
            'directly with skipNegotiation), handshake `{"protocol":"json","version":1}` + 0x1e, invoke `SubscribeToAddress(address)` / ' +
            '`UnsubscribeFromAddress(address)`, and receive `ScoreUpdated({address, category, oldScore, newScore})`. The server pings every 15 s ' +
            'and closes a connection silent for 30 s. No credentials are needed unless CREDENCE_HUB_REQUIRE_KEY=true: then send the API key as ' +
            '`access_token` query parameter, X-API-Key, or Authorization: Bearer (401 otherwise). The same places take a sign-in JWT instead; ' +
            'credentials that are sent but not valid get 401. **Test mode**: a connection opened with test credentials (a cred_test_ key, or a ' +
            'JWT signed in with `environment: "test"`) receives test events only (for example `DebtClaimFiled` of test debt claims), and every ' +
            'other connection live events only.',
          querystring: Type.Object({
            negotiateVersion: Type.Optional(Type.Integer({ minimum: 0 })),
            access_token: Type.Optional(Type.String()),
          }),
          response: { 200: NegotiateResponse, ...errorResponses(401) },
        },
        config: { auth: 'none' },
      },
      async (req, reply) => {
        cors(req, reply);
        const query = new URLSearchParams(req.url.split('?')[1] ?? '');
        const cred = await credentialOf(req.headers, query);
        if (ctx.config.hubRequireKey && !cred) {
          throw unauthorized('The hub needs an API key: send it as access_token, X-API-Key or Authorization: Bearer.');
        }
        const { connectionId, token } = tokens.issue(cred?.keyId ?? null, Date.now(), cred?.environment ?? 'live');
        const transports = [{ transport: 'WebSockets', transferFormats: ['Text'] }];
        const version = (req.query as { negotiateVersion?: number }).negotiateVersion ?? 0;
        // Version 0 clients use the connectionId as the id; it is then the signed token itself.
        if (version < 1) return { negotiateVersion: 0, connectionId: token, availableTransports: transports };
        return { negotiateVersion: 1, connectionId, connectionToken: token, availableTransports: transports };
      },
    );
  });

  const reject = (socket: Duplex, status: number, reason: string, details: string) => {
    const body = JSON.stringify({ error: status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : 'validation_failed', details });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Not a WebSocket (h2c, ...): the platform serves it as plain HTTP; already answered (a connection cap): done.
    if (!/^websocket$/i.test(req.headers.upgrade ?? '') || socket.writableEnded) return;
    const url = new URL(req.url ?? '/', 'http://hub.invalid');
    if (url.pathname !== HUB_PATH && url.pathname !== `${HUB_PATH}/`) {
      // The hub is the only WebSocket endpoint: answer rather than leave the socket hanging.
      reject(socket, 404, 'Not Found', `No WebSocket endpoint at ${url.pathname}.`);
      return;
    }
    socket.on('error', () => socket.destroy());
    void (async () => {
      const id = url.searchParams.get('id');
      let connectionId: string;
      let environment: 'live' | 'test';
      let keyId: string | null;
      if (id) {
        // negotiate decided the credentials; its signed token carries the environment
        const claims = tokens.verify(id);
        if (!claims) return reject(socket, 404, 'Not Found', 'No connection with that id: negotiate again.');
        connectionId = claims.connectionId;
        environment = claims.environment;
        keyId = claims.keyId;
      } else {
        let cred: HubCredential | null;
        try {
          cred = await credentialOf(req.headers, url.searchParams);
        } catch (e) {
          return reject(socket, 401, 'Unauthorized', (e as Error).message);
        }
        if (ctx.config.hubRequireKey && !cred) {
          return reject(
            socket,
            401,
            'Unauthorized',
            'The hub needs an API key: send it as access_token, X-API-Key or Authorization: Bearer.',
          );
        }
        connectionId = randomUUID();
        environment = cred?.environment ?? 'live';
        keyId = cred?.keyId ?? null;
      }
      hub.upgrade(req, socket, head, connectionId, environment, keyId);
    })().catch((err) => {
      ctx.log.error({ err }, 'hub upgrade failed');
      socket.destroy();
    });
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await hub.close();
  });
}
