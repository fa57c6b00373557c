import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import type { App } from '../../platform/http/types.js';
import { isForbiddenIp, parseIpv6 } from './ssrf.js';
import { createSender, parseRetryAfter } from './sender.js';

describe('isForbiddenIp', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '100.127.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.0.8',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'fec0::1',
    '2001:db8::1',
    'nonsense',
  ])('refuses %s', (ip) => expect(isForbiddenIp(ip)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e'])(
    'allows %s',
    (ip) => expect(isForbiddenIp(ip)).toBe(false),
  );

  it('expands IPv6 forms', () => {
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('[2001:db8::1]')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('1::2::3')).toBeNull();
  });
});

describe('sender', () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 200, delayMs: 1_000 }));
  });
  afterAll(async () => rx.close());

  it('gives up on a receiver that does not answer in time', async () => {
    const sender = createSender({ allowPrivate: true, timeoutMs: 200 });
    const r = await sender.send(rx.url, { 'content-type': 'application/json' }, '{}');
    sender.close();
    expect(r).toMatchObject({ ok: false, statusCode: null, error: 'no answer within 0.2 s' });
    expect(r.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('refuses loopback literals and names when private targets are not allowed', async () => {
    const sender = createSender({ allowPrivate: false });
    const before = rx.received.length;
    const lit = await sender.send(rx.url, {}, '{}');
    const named = await sender.send(`http://localhost:${rx.port}/hook`, {}, '{}');
    sender.close();
    expect(lit.error).toMatch(/^refused: 127\.0\.0\.1/);
    expect(named.error).toMatch(/^refused: localhost resolves to/);
    expect(rx.received.length).toBe(before);
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.now() + 30_000).toUTCString())).toBeGreaterThanOrEqual(29);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});

describe('SSRF rule through the API (CREDENCE_WEBHOOK_ALLOW_PRIVATE=false)', () => {
  let app: App;
  let rx: Receiver;
  beforeAll(async () => {
    app = await createTestApp({ config: { webhookAllowPrivate: false, webhookRetrySchedule: [0.05, 0.05] } });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await app?.close();
    await rx?.close();
  });

  it('refuses loopback targets in every spelling at registration', async () => {
    const key = await createKey(app, 'Starter');
    for (const url of [
      rx.url,
      `http://localhost:${rx.port}/hook`,
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      // only this machine's own addresses, in every spelling: private, link-local and shared ranges are covered by
      // isForbiddenIp above, without ever being a target of a test
      'http://[0:0:0:0:0:0:0:1]/x',
      'http://[::ffff:7f00:1]/x',
      'http://127.1/x',
      'http://0177.0.0.1/x', // octal
      'http://127.255.255.254/x',
      'http://0.0.0.0/x',
      'http://2130706433/x', // 127.0.0.1 as one number
      'http://0x7f.1/x',
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields).toEqual([{ field: 'url', message: expect.stringContaining('is not allowed') }]);
    }
    expect((await app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: key.headers })).json().count).toBe(0);
  });

  it('checks again at delivery, after DNS resolution', async () => {
    // A name that was public at registration and now resolves to loopback (DNS rebinding) is what this
    // simulates: the row is written directly, past the registration check.
    const key = await createKey(app, 'Starter');
    const addr = randomAddress();
    const [sub] = await app.ctx.db.query<{ id: string }>(
      `INSERT INTO webhook_subscriptions (api_key_id, url, wallet_address_filter, secret_encrypted) VALUES ($1, $2, $3, $4) RETURNING id`,
      [key.id, `http://localhost:${rx.port}/hook`, addr, app.ctx.cipher.encrypt('whsec_AAAA')],
    );
    await emitScoreChange(app, scoreChange(addr));
    const list = await eventually(async () => {
      const l = (await app.inject({ method: 'GET', url: `/api/v1/webhooks/${sub.id}/deliveries`, headers: key.headers })).json();
      return l.deliveries[0]?.attempts.length >= 1 && l;
    });
    expect(list.deliveries[0].attempts[0]).toMatchObject({
      succeeded: false,
      statusCode: null,
      error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1)/),
    });
    expect(rx.received).toHaveLength(0);
  });
});
