// Score-change events: latency from a score change (outbox rows written in the score's transaction, then
// `score.updated` published after commit) to (a) the ScoreUpdated message at a connected official SignalR
// client and (b) the signed webhook at a loopback receiver, p50/p99 over 1,000 changes each; and (c) webhook
// deliveries per second with 100 subscriptions. Each figure is printed with a baseline measured in the same
// run on the same loopback: a bare `ws` message, a bare HTTP POST, and bare concurrent POSTs.
//
//   node --import tsx bench/events.ts            (embedded PGlite in memory)
//   DATABASE_URL=postgres://... node --import tsx bench/events.ts
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import * as signalR from '@microsoft/signalr';
import { Wallet } from 'ethers';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { SCORE_UPDATED, type ScoreChange } from '../src/modules/scoring/contracts.js';
import type { App } from '../src/platform/http/types.js';

const N = Number(process.env.BENCH_CHANGES ?? 1000);
const SUBS = 100;
const THROUGHPUT_CHANGES = Number(process.env.BENCH_THROUGHPUT_CHANGES ?? 30);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

function change(address: string, i: number): ScoreChange {
  return {
    address,
    category: 'OVERALL',
    oldScore: i,
    newScore: i + 1,
    confidence: 0.8,
    tier: 'Medium',
    calculatedAt: new Date(),
    modelVersion: '1.0.0',
    cause: 'bench',
  };
}

async function emit(app: App, c: ScoreChange) {
  await app.ctx.db.tx((q) => app.ctx.services.webhooks!.enqueue(q, [c]));
  app.ctx.bus.publish(SCORE_UPDATED, c);
}

/** Loopback receiver: resolves the waiter registered for each request's newScore. */
async function receiver() {
  const waiters = new Map<number, () => void>();
  let count = 0;
  let onCount: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      count++;
      onCount?.();
      const body = Buffer.concat(chunks).toString();
      if (!body.startsWith('{"event"')) return;
      const w = waiters.get(JSON.parse(body).data.newScore);
      w?.();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    waitFor: (newScore: number) => new Promise<void>((r) => waiters.set(newScore, r)),
    get count() {
      return count;
    },
    untilCount: (n: number) =>
      new Promise<void>((r) => {
        onCount = () => count >= n && r();
        onCount();
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function baselineWs(): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.on('listening', r));
  const serverSide = new Promise<WebSocket>((r) => wss.on('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((r) => client.on('open', r));
  const s = await serverSide;
  const out: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const got = new Promise((r) => client.once('message', r));
    s.send(JSON.stringify({ type: 1, target: 'ScoreUpdated', arguments: [{ i }] }) + '\x1e');
    await got;
    out.push(performance.now() - t);
  }
  client.close();
  await new Promise((r) => wss.close(r));
  return out;
}

async function baselinePost(url: string, count: number, concurrency: number): Promise<{ lat: number[]; perSec: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const lat: number[] = [];
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const t = performance.now();
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => {
          lat.push(performance.now() - t);
          resolve();
        });
      });
      req.on('error', reject);
      req.end('{"baseline":true}');
    });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await post();
    }),
  );
  const perSec = count / ((performance.now() - t0) / 1000);
  agent.destroy();
  return { lat, perSec };
}

async function main() {
  const config = {
    ...loadConfig({}),
    databaseUrl: process.env.DATABASE_URL ?? 'pglite://memory',
    logLevel: 'silent',
    webhookAllowPrivate: true,
    port: 0,
    redisUrl: process.env.REDIS_URL ?? null,
  };
  const app = await buildApp(config, { logger: false, secrets: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const rx = await receiver();
  const keyId = randomUUID();
  const addSub = (url: string, filter: string | null) =>
    app.ctx.db.query(
      'INSERT INTO webhook_subscriptions (api_key_id, url, wallet_address_filter, secret_encrypted) VALUES ($1, $2, $3, $4)',
      [keyId, url, filter, app.ctx.cipher.encrypt(`whsec_${Buffer.alloc(32, 1).toString('base64')}`)],
    );
  console.log(
    `load average ${(await import('node:os')).loadavg()[0].toFixed(1)} on ${(await import('node:os')).cpus().length} cores; database: ${app.ctx.db.kind}${config.redisUrl ? ' + redis' : ''}; ${N} changes per latency run`,
  );

  // (a) hub
  const hub = new signalR.HubConnectionBuilder()
    .withUrl(`http://127.0.0.1:${port}/hubs/scores`)
    .configureLogging(signalR.LogLevel.None)
    .build();
  const hubWaiters = new Map<number, () => void>();
  hub.on('ScoreUpdated', (p: { newScore: number }) => hubWaiters.get(p.newScore)?.());
  await hub.start();
  const hubAddr = Wallet.createRandom().address.toLowerCase();
  await hub.invoke('SubscribeToAddress', hubAddr);
  const hubLat: number[] = [];
  const txLat: number[] = [];
  for (let i = 0; i < N; i++) {
    const got = new Promise<void>((r) => hubWaiters.set(i + 1, r));
    const t = performance.now();
    await emit(app, change(hubAddr, i));
    txLat.push(performance.now() - t);
    await got;
    hubLat.push(performance.now() - t);
  }
  await hub.stop();
  const wsBase = await baselineWs();

  // (b) webhook
  const hookAddr = Wallet.createRandom().address.toLowerCase();
  await addSub(rx.url, hookAddr);
  const hookLat: number[] = [];
  for (let i = 0; i < N; i++) {
    const got = rx.waitFor(i + 1);
    const t = performance.now();
    await emit(app, change(hookAddr, i));
    await got;
    hookLat.push(performance.now() - t);
  }
  const postBase = await baselinePost(rx.url, N, 1);

  // (c) throughput: 100 subscriptions on every wallet
  for (let i = 0; i < SUBS; i++) await addSub(`${rx.url}?s=${i}`, null);
  const before = rx.count;
  const total = THROUGHPUT_CHANGES * SUBS;
  const t0 = performance.now();
  for (let i = 0; i < THROUGHPUT_CHANGES; i++) await emit(app, change(Wallet.createRandom().address.toLowerCase(), 10_000 + i));
  await rx.untilCount(before + total);
  const perSec = total / ((performance.now() - t0) / 1000);
  const concBase = await baselinePost(rx.url, total, 32);

  console.log('\n| measure | p50 | p99 | baseline p50 | baseline p99 | ratio (p50 / baseline) |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| change -> hub ScoreUpdated at the client | ${fmt(pct(hubLat, 50))} | ${fmt(pct(hubLat, 99))} | ${fmt(pct(wsBase, 50))} (bare ws message) | ${fmt(pct(wsBase, 99))} | ${(pct(hubLat, 50) / pct(wsBase, 50)).toFixed(1)}x |`,
  );
  console.log(
    `| change -> webhook at the receiver | ${fmt(pct(hookLat, 50))} | ${fmt(pct(hookLat, 99))} | ${fmt(pct(postBase.lat, 50))} (bare HTTP POST) | ${fmt(pct(postBase.lat, 99))} | ${(pct(hookLat, 50) / pct(postBase.lat, 50)).toFixed(1)}x |`,
  );
  console.log(`| (of which the score transaction with its outbox insert) | ${fmt(pct(txLat, 50))} | ${fmt(pct(txLat, 99))} | | | |`);
  console.log(`goal: change -> hub message p99 < 20 ms: ${pct(hubLat, 99) < 20 ? 'met' : 'NOT met'} (${fmt(pct(hubLat, 99))})`);
  console.log(
    `\ndeliveries/s with ${SUBS} subscriptions (${total} deliveries): ${perSec.toFixed(0)}/s; bare POSTs at concurrency 32: ${concBase.perSec.toFixed(0)}/s; ratio ${(perSec / concBase.perSec).toFixed(2)}`,
  );

  await app.close();
  await rx.close();
}

await main();
