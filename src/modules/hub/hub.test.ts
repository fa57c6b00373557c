import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signalR from '@microsoft/signalr';
import WebSocket from 'ws';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';

const RS = '\x1e';
let app: App;
let base: string;
const clients: signalR.HubConnection[] = [];

beforeAll(async () => {
  // Short keep-alive and time-out so the ping and time-out behaviour shows within seconds.
  app = await createTestApp({ config: { hubKeepAliveSeconds: 1, hubClientTimeoutSeconds: 3 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
  await app?.close();
});

interface Pushed {
  address: string;
  category: string;
  oldScore: number | null;
  newScore: number;
}

async function connect(opts: signalR.IHttpConnectionOptions = {}, url = `${base}/hubs/scores`) {
  const c = new signalR.HubConnectionBuilder().withUrl(url, opts).configureLogging(signalR.LogLevel.None).build();
  // the server pings every second: a client told to expect a message within 2.5 s stays connected
  c.serverTimeoutInMilliseconds = 2_500;
  c.keepAliveIntervalInMilliseconds = 1_000;
  const got: Pushed[] = [];
  c.on('ScoreUpdated', (p: Pushed) => got.push(p));
  await c.start();
  clients.push(c);
  return { c, got };
}

describe('negotiate', () => {
  it('answers version 1 with a token and the WebSockets transport, with CORS', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/hubs/scores/negotiate?negotiateVersion=1',
      headers: { origin: 'https://app.example' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      connectionToken: expect.any(String),
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    });
    expect(body.connectionToken).not.toBe(body.connectionId);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(res.headers['access-control-allow-credentials']).toBe('true');

    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/hubs/scores/negotiate?negotiateVersion=1',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-signalr-user-agent, x-requested-with',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(pre.headers['access-control-allow-headers']).toContain('x-signalr-user-agent');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');

    const text = await app.inject({
      method: 'POST',
      url: '/hubs/scores/negotiate?negotiateVersion=1',
      headers: { 'content-type': 'text/plain' },
      payload: '',
    });
    expect(text.statusCode).toBe(200);
    const v0 = await app.inject({ method: 'POST', url: '/hubs/scores/negotiate' });
    expect(v0.json()).toMatchObject({ negotiateVersion: 0, connectionId: expect.any(String) });
  });

  it('refuses a forged or unknown connection token', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/hubs/scores?id=forged.token`);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });
});

describe('the official @microsoft/signalr client', () => {
  it('subscribes to an address and receives ScoreUpdated for it only', async () => {
    const { c, got } = await connect();
    expect(c.state).toBe(signalR.HubConnectionState.Connected);
    const mine = randomAddress();
    const other = randomAddress();
    await c.invoke('SubscribeToAddress', toChecksum(mine));
    await emitScoreChange(app, scoreChange(other, { newScore: 1 }));
    await emitScoreChange(app, scoreChange(mine, { category: 'GOVERNANCE', oldScore: 300, newScore: 420 }));
    await eventually(() => got.length === 1);
    expect(got[0]).toEqual({ address: toChecksum(mine), category: 'GOVERNANCE', oldScore: 300, newScore: 420 });

    await c.invoke('UnsubscribeFromAddress', mine);
    await emitScoreChange(app, scoreChange(mine, { newScore: 999 }));
    // a marker change on a still-subscribed address proves the unsubscribed one was skipped, not delayed
    const marker = randomAddress();
    await c.invoke('SubscribeToAddress', marker);
    await emitScoreChange(app, scoreChange(marker, { newScore: 5 }));
    await eventually(() => got.length === 2);
    expect(got[1].address).toBe(toChecksum(marker));
    expect(got.some((g) => g.newScore === 999)).toBe(false);
  });

  it('connects with skipNegotiation too', async () => {
    const { c, got } = await connect({ skipNegotiation: true, transport: signalR.HttpTransportType.WebSockets });
    const a = randomAddress();
    await c.invoke('SubscribeToAddress', a);
    await emitScoreChange(app, scoreChange(a));
    await eventually(() => got.length === 1);
  });

  it('completes unknown methods and bad addresses with an error', async () => {
    const { c } = await connect();
    await expect(c.invoke('NoSuchMethod', 1)).rejects.toThrow(/Unknown hub method 'NoSuchMethod'/);
    await expect(c.invoke('SubscribeToAddress', '0x1234')).rejects.toThrow(/Invalid address/);
    await expect(c.invoke('SubscribeToAddress', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046')).rejects.toThrow(/EIP-55/);
    await expect(c.invoke('SubscribeToAddress')).rejects.toThrow(/expects 1 argument/);
    // the connection stays usable
    await c.invoke('SubscribeToAddress', randomAddress());
    expect(c.state).toBe(signalR.HubConnectionState.Connected);
  });

  it('stays connected through server pings while idle', async () => {
    const { c } = await connect();
    const start = Date.now();
    await eventually(() => Date.now() - start > 4_000, { timeoutMs: 10_000, intervalMs: 250 });
    expect(c.state).toBe(signalR.HubConnectionState.Connected);
  });
});

describe('the wire protocol', () => {
  it('handshakes with 0x1e, pings, and closes a silent client after the server time-out', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/hubs/scores`);
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(d.toString()));
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    await new Promise((r) => ws.on('open', r));
    ws.send(`{"protocol":"json","version":1}${RS}`);
    await eventually(() => frames.length >= 1);
    expect(frames[0]).toBe(`{}${RS}`);
    ws.send(`{"type":1,"invocationId":"7","target":"SubscribeToAddress","arguments":["${randomAddress()}"]}${RS}`);
    await eventually(() => frames.some((f) => f.includes('"invocationId":"7"')));
    expect(JSON.parse(frames.find((f) => f.includes('"invocationId":"7"'))!.slice(0, -1))).toEqual({ type: 3, invocationId: '7' });
    // silent from here on: pings arrive, then the close message with the time-out error
    await closed;
    const msgs = frames.flatMap((f) => f.split(RS).filter(Boolean)).map((m) => JSON.parse(m));
    expect(msgs.some((m) => m.type === 6)).toBe(true);
    expect(msgs.at(-1)).toEqual({ type: 7, error: 'Server timeout elapsed without receiving a message from the client.' });
  });

  it('refuses an unsupported protocol in the handshake', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/hubs/scores`);
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(d.toString()));
    const closed = new Promise((r) => ws.on('close', r));
    await new Promise((r) => ws.on('open', r));
    ws.send(`{"protocol":"messagepack","version":1}${RS}`);
    await closed;
    expect(JSON.parse(frames[0].slice(0, -1)).error).toMatch(/messagepack/);
  });
});

describe('with CREDENCE_HUB_REQUIRE_KEY=true', () => {
  let keyed: App;
  let keyedBase: string;
  beforeAll(async () => {
    keyed = await createTestApp({ config: { hubRequireKey: true } });
    await keyed.listen({ port: 0, host: '127.0.0.1' });
    keyedBase = `http://127.0.0.1:${(keyed.server.address() as { port: number }).port}`;
  });
  afterAll(async () => keyed?.close());

  it('needs an API key on negotiate or on a negotiation-less WebSocket', async () => {
    const none = await keyed.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    const bad = await keyed.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1&access_token=cred_live_nope' });
    expect(bad.statusCode).toBe(401);

    const key = await createKey(keyed, 'Free');
    expect(
      (await keyed.inject({ method: 'POST', url: `/hubs/scores/negotiate?negotiateVersion=1&access_token=${key.apiKey}` })).statusCode,
    ).toBe(200);
    expect(
      (await keyed.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1', headers: key.headers })).statusCode,
    ).toBe(200);

    const ws = new WebSocket(`${keyedBase.replace('http', 'ws')}/hubs/scores`);
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);

    // the official client with accessTokenFactory (Authorization: Bearer in Node)
    const c = new signalR.HubConnectionBuilder()
      .withUrl(`${keyedBase}/hubs/scores`, { accessTokenFactory: () => key.apiKey })
      .configureLogging(signalR.LogLevel.None)
      .build();
    const got: Pushed[] = [];
    c.on('ScoreUpdated', (p: Pushed) => got.push(p));
    await c.start();
    const a = randomAddress();
    await c.invoke('SubscribeToAddress', a);
    await emitScoreChange(keyed, scoreChange(a));
    await eventually(() => got.length === 1);
    const direct = new signalR.HubConnectionBuilder()
      .withUrl(`${keyedBase}/hubs/scores`, { skipNegotiation: true, transport: signalR.HttpTransportType.WebSockets })
      .configureLogging(signalR.LogLevel.None)
      .build();
    await expect(direct.start()).rejects.toThrow();
    await c.stop();
  });

  it('closes connected clients on shutdown', async () => {
    const other = await createTestApp({});
    await other.listen({ port: 0, host: '127.0.0.1' });
    const c = new signalR.HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${(other.server.address() as { port: number }).port}/hubs/scores`)
      .configureLogging(signalR.LogLevel.None)
      .build();
    const closed = new Promise<Error | undefined>((r) => c.onclose(r));
    await c.start();
    await other.close();
    await closed;
    expect(c.state).toBe(signalR.HubConnectionState.Disconnected);
  });
});
