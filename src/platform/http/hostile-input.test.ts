// Hostile input, over a real socket where the HTTP parser is involved: NUL bytes and lone surrogates,
// bad percent-encoding, malformed HTTP, over-long URLs and headers, `Upgrade: h2c`, oversized bodies, and
// per-client connection caps. Every answer must be the documented {error, details} body, never a 500 or a reset.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, randomAddress } from '../../../test/helpers/app.js';
import type { App } from './types.js';

let app: App;
let port: number;
beforeAll(async () => {
  app = await createTestApp({ config: { maxConnectionsPerClient: 20, maxWebSocketsPerClient: 3, claimsPerIpPerMinute: 100_000 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(() => app.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads one HTTP/1.1 response (until the server closes or the body is complete). */
function raw(request: string | Buffer, opts: { slowTail?: Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const done = () => {
      const text = buf.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const body = buf.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      if (headers['content-length'] && body.length < Number(headers['content-length'])) return false;
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
      s.destroy();
      return true;
    };
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      done();
    });
    s.on('error', reject);
    s.on('close', () => {
      if (!done()) reject(new Error(`connection closed without a response: ${JSON.stringify(buf.toString('latin1'))}`));
    });
    s.write(request);
    if (opts.slowTail) {
      // the body in 64 KiB pieces, one per tick, as a real client on a network sends it (the server answers
      // 413 from the headers long before the last piece)
      const tail = opts.slowTail;
      let at = 0;
      const next = () => {
        if (at >= tail.length || s.destroyed) return;
        s.write(tail.subarray(at, (at += 65_536)), () => setTimeout(next, 1));
      };
      next();
    }
  });
}

function expectErrorBody(r: RawResponse, status: number) {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toContain('application/json');
  const body = JSON.parse(r.body);
  expect(typeof body.error).toBe('string');
  expect(typeof body.details).toBe('string');
  return body;
}

const get = (path: string, extra = '') => raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`);

describe('text that PostgreSQL cannot store', () => {
  const post = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  it('a NUL byte in a body field: 400 validation_failed naming the field, not 500', async () => {
    const body = JSON.stringify({
      creditorAddress: randomAddress(),
      debtorAddress: randomAddress(),
      claimType: 'Other',
      amount: 1,
      currency: 'USDC',
      description: 'bad\u0000text',
      evidenceTransactionHash: `0x${'ab'.repeat(32)}`,
      chainId: 1,
      protocolName: 'Aave',
    });
    const res = await post('/api/v1/debt-claims', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'description' }] });
  });

  it('a lone surrogate in a body field, and a NUL in an object key: 400', async () => {
    const res = await post(
      '/api/v1/identity/register',
      '{"walletAddress":"0x0000000000000000000000000000000000000001","chainId":1,"note":"\\ud800x"}',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('note');
    const key = await post(
      '/api/v1/identity/register',
      '{"walletAddress":"0x0000000000000000000000000000000000000001","chainId":1,"k\\u0000":1}',
    );
    expect(key.statusCode).toBe(400);
  });

  it('%00 in a path and a query: 400 in the error format', async () => {
    for (const url of [
      '/api/v1/billing/checkout/local/cs_%00x',
      '/1.0/identifiers/did%3Acredence%3A0x%00',
      '/api/v1/billing/checkout/done?session_id=%00',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe('validation_failed');
    }
  });
});

describe('errors from the router and the HTTP parser', () => {
  it('%ZZ in a path: 400 validation_failed', async () => {
    const r = await get('/api/v1/reputation/%ZZ');
    expect(expectErrorBody(r, 400).error).toBe('validation_failed');
  });

  it('malformed HTTP: 400 in the error format', async () => {
    expectErrorBody(await raw('GARBAGE\r\n\r\n'), 400);
    expectErrorBody(await raw('GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n'), 400);
  });

  it('an over-long URL and over-large headers: 414 / 431 in the error format', async () => {
    const long = await get(`/api/v1/x?q=${'a'.repeat(20_000)}`);
    expect([414, 431]).toContain(long.status);
    expectErrorBody(long, long.status);
    expectErrorBody(await get('/health', `X-Big: ${'b'.repeat(20_000)}\r\n`), 431);
  });

  it('Upgrade: h2c is answered as plain HTTP/1.1, on every route', async () => {
    const h = await get('/health', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n');
    expect(h.status).toBe(200);
    const nf = await get('/api/v1/nope', 'Connection: Upgrade\r\nUpgrade: h2c\r\n');
    expect(expectErrorBody(nf, 404).error).toBe('not_found');
    const body = '{"walletAddress":"0x0000000000000000000000000000000000000002","chainId":1}';
    const post = await raw(
      `POST /api/v1/identity/register HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    // Node's parser refuses a body after an Upgrade header (a client error, not an upgrade): the documented 400
    if (post.status >= 400) expectErrorBody(post, 400);
    else expect(post.status, post.body).toBeLessThan(300);
  });

  it('a body over the limit gets 413 with the error body, not a connection reset', async () => {
    for (let i = 0; i < 5; i++) {
      const big = Buffer.alloc(3 * 1024 * 1024, 'a');
      const head = `POST /api/v1/identity/register HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`;
      const r = await raw(head, { slowTail: big });
      expect(expectErrorBody(r, 413).error).toBe('payload_too_large');
    }
  });
});

describe('per-client connection caps', () => {
  it('past CREDENCE_MAX_CONNECTIONS_PER_CLIENT open connections, a new one gets 429 in the error format', async () => {
    const idle: net.Socket[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const s = net.connect(port, '127.0.0.1');
        await new Promise((r) => s.on('connect', r));
        idle.push(s);
      }
      const r = await get('/health');
      expect(expectErrorBody(r, 429).error).toBe('rate_limited');
    } finally {
      for (const s of idle) s.destroy();
    }
    // the slots free up when the connections close
    const deadline = Date.now() + 30_000;
    let ok = await get('/health').catch(() => null);
    while ((!ok || ok.status !== 200) && Date.now() < deadline) ok = await get('/health').catch(() => null);
    expect(ok?.status).toBe(200);
  });

  it('past CREDENCE_MAX_WEBSOCKETS_PER_CLIENT hub connections, the next upgrade gets 429', async () => {
    const sockets: net.Socket[] = [];
    const upgrade = () =>
      raw(
        `GET /hubs/scores HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
    try {
      for (let i = 0; i < 3; i++) {
        const s = net.connect(port, '127.0.0.1');
        await new Promise((r) => s.on('connect', r));
        s.write(
          `GET /hubs/scores HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        );
        await new Promise<void>((r) => s.once('data', (d) => (expect(String(d)).toContain('101'), r())));
        sockets.push(s);
      }
      const r = await upgrade();
      expect(expectErrorBody(r, 429).error).toBe('rate_limited');
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});
