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

/** The API key a hub client presents: access_token query (browsers), X-API-Key, or Authorization: Bearer (Node client). */
export function presentedKey(headers: IncomingMessage['headers'], query: URLSearchParams): string | null {
  const q = query.get('access_token');
  if (q) return q;
  const h = headers['x-api-key'];
  if (typeof h === 'string' && h) return h;
  const m = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return m ? m[1] : null;
}

export function registerHubRoutes(app: App, ctx: AppContext, hub: Hub, tokens: TokenSigner) {
  async function keyIdOf(headers: IncomingMessage['headers'], query: URLSearchParams): Promise<string | null> {
    const key = presentedKey(headers, query);
    if (!key) return null;
    const p = await ctx.apiKeys.resolve(hashApiKey(key));
    return p?.keyId ?? null;
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
            '`access_token` query parameter, X-API-Key, or Authorization: Bearer (401 otherwise).',
          querystring: Type.Object({ negotiateVersion: Type.Optional(Type.Integer({ minimum: 0 })), access_token: Type.Optional(Type.String()) }),
          response: { 200: NegotiateResponse, ...errorResponses(401) },
        },
        config: { auth: 'none' },
      },
      async (req, reply) => {
        cors(req, reply);
        const query = new URLSearchParams(req.url.split('?')[1] ?? '');
        const keyId = await keyIdOf(req.headers, query);
        if (ctx.config.hubRequireKey && !keyId) {
          throw unauthorized('The hub needs an API key: send it as access_token, X-API-Key or Authorization: Bearer.');
        }
        const { connectionId, token } = tokens.issue(keyId);
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
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
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
      if (id) {
        const claims = tokens.verify(id);
        if (!claims) return reject(socket, 404, 'Not Found', 'No connection with that id: negotiate again.');
        connectionId = claims.connectionId;
      } else {
        if (ctx.config.hubRequireKey && !(await keyIdOf(req.headers, url.searchParams))) {
          return reject(socket, 401, 'Unauthorized', 'The hub needs an API key: send it as access_token, X-API-Key or Authorization: Bearer.');
        }
        connectionId = randomUUID();
      }
      hub.upgrade(req, socket, head, connectionId);
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
