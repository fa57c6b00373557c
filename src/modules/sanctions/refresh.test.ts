// The scheduled refresh (download from CREDENCE_SANCTIONS_URL) and keeping every instance's in-memory list current.
import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { Redis } from 'ioredis';
import { createTestApp, eventually, redisUrl } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { createEventBus } from '../../platform/events/bus.js';
import type { Db } from '../../platform/db/types.js';
import { refreshFromUrl } from './refresh.js';
import { createSanctionsScreening, type Log } from './service.js';
import { advancedXml, fileText, sdnCsv, sdnCsvWithComments, type SdnParty } from './sdn-files.js';

const silent: Log = { info() {}, warn() {}, error() {} };
const addr = () => getAddress('0x' + randomBytes(20).toString('hex'));

/** A stand-in for OFAC's download server: serves whatever file is set, with ETag and Last-Modified. */
function fileServer() {
  const state = {
    body: '',
    type: 'application/xml',
    lastModified: new Date('2024-09-27T14:00:00Z'),
    status: 200,
    requests: 0,
    conditional: 0,
    /** bodies for particular paths (sdn_comments.csv); other paths get `body` */
    files: {} as Record<string, string>,
  };
  const server: Server = createServer((req, res) => {
    state.requests++;
    const path = new URL(req.url!, 'http://x').pathname;
    if (state.status !== 200 || (path.includes('comments') && !(path in state.files))) {
      res.writeHead(path.includes('comments') && state.status === 200 ? 404 : state.status).end('unavailable');
      return;
    }
    const body = state.files[path] ?? state.body;
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) {
      state.conditional++;
      res.writeHead(304).end();
      return;
    }
    res.writeHead(200, { 'content-type': state.type, etag, 'last-modified': state.lastModified.toUTCString() });
    // Several writes, so the importer reads a real stream.
    const b = Buffer.from(body);
    for (let i = 0; i < b.length; i += 4096) res.write(b.subarray(i, i + 4096));
    res.end();
  });
  return {
    state,
    async listen() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('refresh from a URL', () => {
  const srv = fileServer();
  let base: string;
  let db: Db;
  beforeAll(async () => {
    base = await srv.listen();
    db = await testDatabase();
  });
  afterAll(async () => {
    await srv.close();
    await db?.close();
  });

  it('imports a new file, skips an unchanged one, and keeps the list when the download fails', async () => {
    const screening = createSanctionsScreening({ db, bus: createEventBus({ instanceId: 'a', channel: 'x' }), log: silent });
    const [a, b] = [addr(), addr()];
    srv.state.body = fileText(
      advancedXml(new Date('2024-09-27T00:00:00Z'), [{ id: 1, name: 'TORNADO CASH', addresses: [{ ticker: 'ETH', address: a }] }]),
    );
    const validators = {};
    const first = await refreshFromUrl(`${base}/sdn_advanced.xml`, screening, { validators });
    expect(first).toMatchObject({
      status: 'imported',
      list: { version: 1, fileName: 'sdn_advanced.xml', importedBy: `refresh:${base}/sdn_advanced.xml`, entryCount: 1 },
    });
    expect(screening.service.status(a)).toMatchObject({ sanctioned: true, entityName: 'TORNADO CASH' });

    // Conditional request: 304, nothing imported.
    expect(await refreshFromUrl(`${base}/sdn_advanced.xml`, screening, { validators })).toBe('not_modified');
    expect(srv.state.conditional).toBe(1);
    // Without validators the same bytes are recognized by their hash.
    expect(await refreshFromUrl(`${base}/sdn_advanced.xml`, screening)).toMatchObject({ status: 'unchanged', list: { version: 1 } });

    // sdn.csv has no date of its own: Last-Modified stands in for it.
    srv.state.body = fileText(sdnCsv([{ id: 2, name: 'GARANTEX EUROPE OU', addresses: [{ ticker: 'ETH', address: b }] }]));
    srv.state.type = 'text/csv';
    srv.state.lastModified = new Date('2025-04-01T09:30:00Z');
    const csv = await refreshFromUrl(`${base}/sdn.csv`, screening, { validators });
    expect(csv).toMatchObject({ status: 'imported', list: { version: 2, format: 'sdn_csv' } });
    expect(screening.service.status(b)).toEqual({
      sanctioned: true,
      entityName: 'GARANTEX EUROPE OU',
      listPublishedAt: new Date('2025-04-01T09:30:00Z'),
    });
    expect(screening.service.status(a).sanctioned).toBe(false);

    srv.state.status = 503;
    await expect(refreshFromUrl(`${base}/sdn.csv`, screening)).rejects.toThrow(/503/);
    expect(screening.service.status(b).sanctioned).toBe(true);
    srv.state.status = 200;
  });

  it('fetches sdn_comments.csv next to an sdn.csv, so addresses in the overflowing remarks are listed', async () => {
    const screening = createSanctionsScreening({ db, bus: createEventBus({ instanceId: 'c', channel: 'x' }), log: silent });
    const many = Array.from({ length: 8 }, () => addr());
    const { csv, comments } = sdnCsvWithComments(
      [{ id: 33151, name: 'GARANTEX EUROPE OU', addresses: many.map((address) => ({ ticker: 'ETH', address })) }],
      250,
    );
    srv.state.body = csv;
    srv.state.type = 'text/csv';
    srv.state.lastModified = new Date('2025-07-01T00:00:00Z');
    srv.state.files = { '/exports/SDN_COMMENTS.CSV': comments };
    const r = await refreshFromUrl(`${base}/exports/SDN.CSV`, screening);
    expect(r).toMatchObject({ status: 'imported', list: { entryCount: 8, fileName: 'SDN.CSV + SDN_COMMENTS.CSV' } });
    for (const a of many) expect(screening.service.status(a)).toMatchObject({ sanctioned: true, entityName: 'GARANTEX EUROPE OU' });
    // A server without the companion (404) gives sdn.csv alone: the overflowing addresses are missing.
    srv.state.files = {};
    srv.state.lastModified = new Date('2025-07-02T00:00:00Z');
    const alone = await refreshFromUrl(`${base}/other/sdn.csv`, screening);
    expect(alone).toMatchObject({ status: 'imported', list: { fileName: 'sdn.csv' } });
    expect((alone as { list: { entryCount: number } }).list.entryCount).toBeLessThan(8);
  });

  it('keeps a second instance current through the poll (no Redis) or at once through the event (Redis)', async () => {
    const one = createSanctionsScreening({ db, bus: createEventBus({ instanceId: 'one', channel: 'x' }), log: silent });
    const two = createSanctionsScreening({ db, bus: createEventBus({ instanceId: 'two', channel: 'x' }), log: silent });
    await Promise.all([one.reload(), two.reload()]);
    const stop = two.startSync(50);
    try {
      const c = addr();
      const r = await one.importList({
        source: (async function* () {
          yield Buffer.from(
            fileText(
              advancedXml(new Date('2025-08-01T00:00:00Z'), [{ id: 3, name: 'ENTRY THREE', addresses: [{ ticker: 'ETH', address: c }] }]),
            ),
          );
        })(),
        importedBy: 'test',
      });
      expect(r.status).toBe('imported');
      await eventually(() => two.service.status(c).sanctioned === true);
      expect(two.current()?.version).toBe(r.list.version);
    } finally {
      stop();
    }
  });

  it.skipIf(!redisUrl())('reloads another instance through the Redis event', async () => {
    const prefix = `credence-test:${randomBytes(6).toString('hex')}:`;
    const conns = [0, 1, 2, 3].map(() => new Redis(redisUrl()!));
    const bus = (id: string, i: number) =>
      createEventBus({ instanceId: id, channel: `${prefix}events`, redis: conns[i], subscriber: conns[i + 1] });
    const one = createSanctionsScreening({ db, bus: bus('one', 0), log: silent });
    const two = createSanctionsScreening({ db, bus: bus('two', 2), log: silent });
    await Promise.all([one.reload(), two.reload()]);
    // A poll too slow to matter: only the event can explain a prompt reload.
    const stop = two.startSync(3_600_000);
    try {
      await new Promise((r) => setTimeout(r, 200)); // let the subscriber attach
      const d = addr();
      await one.importList({
        source: (async function* () {
          yield Buffer.from(
            fileText(
              advancedXml(new Date('2025-09-01T00:00:00Z'), [{ id: 4, name: 'ENTRY FOUR', addresses: [{ ticker: 'ETH', address: d }] }]),
            ),
          );
        })(),
        importedBy: 'test',
      });
      await eventually(() => two.service.status(d).sanctioned === true, { timeoutMs: 5000 });
    } finally {
      stop();
      for (const c of conns) c.disconnect();
    }
  });
});

describe('refresh worker', () => {
  const srv = fileServer();
  let app: Awaited<ReturnType<typeof createTestApp>> | undefined;
  afterAll(async () => {
    await app?.close();
    await srv.close();
  });

  it('downloads the list at start when none is loaded, and serves it', async () => {
    const base = await srv.listen();
    const e = addr();
    const parties: SdnParty[] = [{ id: 9, name: 'LAZARUS GROUP', addresses: [{ ticker: 'ETH', address: e }] }];
    srv.state.body = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), parties));
    app = await createTestApp({ config: { sanctionsUrl: `${base}/sdn_advanced.xml`, sanctionsRefreshHours: 24 } });
    await eventually(() => app!.ctx.services.sanctions!.status(e).sanctioned === true);
    expect(app.ctx.services.sanctions!.status(e)).toEqual({
      sanctioned: true,
      entityName: 'LAZARUS GROUP',
      listPublishedAt: new Date('2024-09-27T00:00:00Z'),
    });
    expect(srv.state.requests).toBe(1);
  });
});
