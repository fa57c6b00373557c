// `credence sanctions import|status` against an embedded database in a data directory, then a server started on
// that directory screening with the imported list.
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { getAddress } from 'ethers';
import { buildApp } from '../../app.js';
import type { App } from '../../platform/http/types.js';
import { createKey, testConfig } from '../../../test/helpers/app.js';
import { runSanctionsCommand } from './cli.js';
import { advancedXml, fileText, sdnCsv, sdnCsvWithComments } from './sdn-files.js';

const addr = () => getAddress('0x' + randomBytes(20).toString('hex'));

describe('credence sanctions', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-sanctions-cli-'));
  const config = testConfig({ databaseUrl: null, dataDir: dir, redisUrl: null });
  let out: string[] = [];
  let app: App | undefined;
  const capture = () => {
    out = [];
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  };
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('imports both formats, dates sdn.csv by --published-at or the file time, and reports the status', async () => {
    const [a, b] = [addr(), addr()];
    const xml = path.join(dir, 'sdn_advanced.xml');
    writeFileSync(
      xml,
      fileText(
        advancedXml(new Date('2024-09-27T00:00:00Z'), [{ id: 1, name: 'TORNADO CASH', addresses: [{ ticker: 'ETH', address: a }] }]),
      ),
    );
    capture();
    await runSanctionsCommand(['import', xml], config);
    expect(process.exitCode ?? 0).toBe(0);
    expect(out.join('\n')).toMatch(/imported version 1: 1 addresses, sdn_advanced_xml, published 2024-09-27/);

    // sdn.csv: the file's modification time is its date unless --published-at says otherwise.
    const csv = path.join(dir, 'sdn.csv');
    writeFileSync(csv, fileText(sdnCsv([{ id: 2, name: 'GARANTEX EUROPE OU', addresses: [{ ticker: 'ETH', address: b }] }])));
    utimesSync(csv, new Date('2025-02-03T10:00:00Z'), new Date('2025-02-03T10:00:00Z'));
    capture();
    await runSanctionsCommand(['import', csv], config);
    expect(out.join('\n')).toMatch(/imported version 2: 1 addresses, sdn_csv, published 2025-02-03/);

    writeFileSync(csv, fileText(sdnCsv([{ id: 3, name: 'LAZARUS GROUP', addresses: [{ ticker: 'ETH', address: a }] }])));
    capture();
    await runSanctionsCommand(['import', '--published-at', '2025-03-01', csv], config);
    expect(out.join('\n')).toMatch(/imported version 3: .*published 2025-03-01/);

    capture();
    await runSanctionsCommand(['status'], config);
    const status = out.join('\n');
    expect(status).toMatch(/in force: version 3, published 2025-03-01, 1 addresses/);
    expect(
      status
        .split('\n')
        .filter((l) => /^\d+\s/.test(l))
        .map((l) => Number(l.split(/\s+/)[0])),
    ).toEqual([3, 2, 1]);

    capture();
    await runSanctionsCommand(['import'], config);
    expect(process.exitCode).toBe(2);
    expect(out.join('\n')).toMatch(/import needs a file/);
  });

  it('reads sdn_comments.csv found next to sdn.csv, or given with --comments', async () => {
    const many = Array.from({ length: 8 }, () => addr());
    const { csv, comments } = sdnCsvWithComments(
      [{ id: 33151, name: 'GARANTEX EUROPE OU', addresses: many.map((address) => ({ ticker: 'ETH', address })) }],
      250,
    );
    const sub = mkdtempSync(path.join(dir, 'ofac-'));
    writeFileSync(path.join(sub, 'SDN.CSV'), csv);
    writeFileSync(path.join(sub, 'SDN_COMMENTS.CSV'), comments);
    capture();
    await runSanctionsCommand(['import', path.join(sub, 'SDN.CSV'), '--published-at', '2025-04-01'], config);
    expect(out.join('\n')).toMatch(/imported version 4: 8 addresses, sdn_csv/);
    const elsewhere = path.join(dir, 'comments-elsewhere.csv');
    writeFileSync(elsewhere, comments);
    writeFileSync(path.join(dir, 'plain.csv'), csv);
    capture();
    await runSanctionsCommand(['import', '--comments', elsewhere, path.join(dir, 'plain.csv'), '--published-at', '2025-04-02'], config);
    // Same pair of files as version 4: nothing new.
    expect(out.join('\n')).toMatch(/unchanged: identical to version 4/);
  });

  it('refuses a list older than the one in force without --force', async () => {
    const csv = path.join(dir, 'old.csv');
    writeFileSync(csv, fileText(sdnCsv([{ id: 4, name: 'OLD ENTRY', addresses: [{ ticker: 'ETH', address: addr() }] }])));
    capture();
    await runSanctionsCommand(['import', csv, '--published-at', '2024-01-01'], config);
    expect(process.exitCode).toBe(1);
    expect(out.join('\n')).toMatch(/before the list in force/);
  });

  it('leaves a server on the same data directory screening with the imported list', async () => {
    app = await buildApp(testConfig({ databaseUrl: null, dataDir: dir, redisUrl: null }), { logger: false, secrets: {} });
    await app.ready();
    const key = await createKey(app, 'Starter');
    const adminOnly = await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: key.headers });
    expect(adminOnly.statusCode).toBe(401); // admin route, not for API keys
    const current = app.ctx.services.sanctions!;
    // Version 4 (the one in force) lists GARANTEX EUROPE OU's eight addresses.
    const lists = await app.ctx.db.query<{ version: number; entry_count: number }>(
      'SELECT version, entry_count FROM sanctions_lists ORDER BY version',
    );
    expect(lists.map((l) => l.version)).toEqual([1, 2, 3, 4]);
    const entries = await app.ctx.db.query<{ address: string }>(
      'SELECT address FROM sanctions_entries e JOIN sanctions_lists l ON l.id = e.list_id WHERE l.version = 4',
    );
    expect(entries).toHaveLength(8);
    const listed = getAddress(entries[0].address);
    const res = await app.inject({ method: 'GET', url: `/api/v1/compliance/sanctions/${listed}`, headers: key.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      walletAddress: listed,
      sanctioned: true,
      entityName: 'GARANTEX EUROPE OU',
      listPublishedAt: '2025-04-01T00:00:00.000Z',
    });
    expect(current.status(addr()).sanctioned).toBe(false);
  });
});
