// Sanctions screening through HTTP: the 503 before any list, imports by upload in both official formats, matching
// in any case, list replacement, auth, and the score follow-up of status changes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import {
  createKey,
  createTestApp,
  eventually,
  randomAddress,
  signIn,
  signInAdmin,
  type SignedIn,
  type TestKey,
} from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import type { ScoringService } from '../scoring/contracts.js';
import { advancedXml, fileText, sdnCsv, zipArchive, type SdnParty } from './sdn-files.js';
import { parseSanctionsFile } from './parse/index.js';

/** The real ETH addresses on the SDN list of 2024-09-27, as shipped in the repository (spelled as published). */
const REAL_LIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../data/sanctions/ofac-sdn-evm-addresses-2024-09-27.txt',
);

const checksummed = () => getAddress('0x' + randomBytes(20).toString('hex'));
/** A mixed-case spelling that is not the EIP-55 one. */
const badChecksum = (a: string) => {
  const c = getAddress(a);
  const i = [...c].findIndex((ch, k) => k > 1 && /[a-f]/i.test(ch));
  const flipped = c[i] === c[i].toUpperCase() ? c[i].toLowerCase() : c[i].toUpperCase();
  return c.slice(0, i) + flipped + c.slice(i + 1);
};

async function upload(app: App, who: SignedIn | null, body: string, contentType: string, query = '') {
  return app.inject({
    method: 'POST',
    url: `/api/v1/compliance/sanctions/import${query}`,
    headers: { 'content-type': contentType, ...(who ? who.auth : {}) },
    payload: body,
  });
}
const getStatus = (app: App, key: TestKey | null, address: string) =>
  app.inject({ method: 'GET', url: `/api/v1/compliance/sanctions/${address}`, headers: key ? key.headers : {} });
const postCheck = (app: App, key: TestKey | null, walletAddress: unknown) =>
  app.inject({ method: 'POST', url: '/api/v1/compliance/sanctions-check', headers: key ? key.headers : {}, payload: { walletAddress } });

describe('sanctions screening', () => {
  let app: App;
  let key: TestKey;
  let admin: SignedIn;
  const tornado = [checksummed(), checksummed()];
  const person = checksummed();
  const lowerOnly = randomAddress();
  const v1: SdnParty[] = [
    {
      id: 40001,
      name: 'TORNADO CASH',
      addresses: [
        { ticker: 'ETH', address: tornado[0] },
        { ticker: 'USDC', address: tornado[1] },
      ],
    },
    {
      id: 40002,
      name: { last: 'SEMENOV', first: 'Roman' },
      addresses: [
        { ticker: 'ETH', address: person },
        { ticker: 'XBT', address: '1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V' },
      ],
    },
    { id: 40003, name: 'LAZARUS GROUP', addresses: [{ ticker: 'ETH', address: lowerOnly }] },
  ];

  beforeAll(async () => {
    app = await createTestApp();
    key = await createKey(app, 'Starter');
    admin = await signInAdmin(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 503 on both routes before any list is imported, never "not sanctioned"', async () => {
    const a = checksummed();
    const usage = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json().queriesThisMonth as number;
    const before = await usage();
    for (const res of [await getStatus(app, key, a), await postCheck(app, key, a)]) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'unavailable', details: expect.stringMatching(/no sanctions list/i) });
    }
    // A screening that could not be made is not counted.
    expect(await usage()).toBe(before);
    expect(app.ctx.services.sanctions!.status(a)).toEqual({ sanctioned: null, entityName: null, listPublishedAt: null });
  });

  it('needs an API key (401) on both screening routes, and checks it', async () => {
    const a = checksummed();
    for (const res of [await getStatus(app, null, a), await postCheck(app, null, a)]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
    const bad = await app.inject({
      method: 'GET',
      url: `/api/v1/compliance/sanctions/${a}`,
      headers: { 'x-api-key': 'cred_live_' + 'x'.repeat(40) },
    });
    expect(bad.statusCode).toBe(401);
  });

  it('lets only an admin JWT import a list', async () => {
    const xml = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), v1));
    expect((await upload(app, null, xml, 'application/xml')).statusCode).toBe(401);
    const user = await signIn(app);
    const res = await upload(app, user, xml, 'application/xml');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    // The API key does not make anyone an admin either.
    const withKey = await app.inject({
      method: 'POST',
      url: '/api/v1/compliance/sanctions/import',
      headers: { 'content-type': 'application/xml', ...key.headers },
      payload: xml,
    });
    expect(withKey.statusCode).toBe(401);
  });

  it('imports sdn_advanced.xml by upload and screens its addresses in any case', async () => {
    const xml = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), v1));
    const res = await upload(app, admin, xml, 'application/xml', '?fileName=sdn_advanced.xml');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe('imported');
    expect(body.list).toMatchObject({
      version: 1,
      source: 'OFAC SDN List',
      format: 'sdn_advanced_xml',
      publishedAt: '2024-09-27T00:00:00.000Z',
      entryCount: 4,
      fileBytes: Buffer.byteLength(xml),
      fileName: 'sdn_advanced.xml',
      importedBy: admin.address,
    });
    expect(body.list.fileSha256).toMatch(/^[0-9a-f]{64}$/);

    const before = Date.now();
    for (const spelling of [tornado[0], tornado[0].toLowerCase(), '0x' + tornado[0].slice(2).toUpperCase()]) {
      const r = await getStatus(app, key, spelling);
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-ratelimit-limit']).toBeDefined();
      const out = r.json();
      expect(out).toEqual({
        walletAddress: tornado[0],
        sanctioned: true,
        checkedAt: expect.any(String),
        source: 'OFAC SDN List',
        listPublishedAt: '2024-09-27T00:00:00.000Z',
        listVersion: 1,
        listSource: 'import',
        entityName: 'TORNADO CASH',
      });
      expect(Date.parse(out.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    // Published in lowercase, asked checksummed; USDC ticker; person's name as SDN_Name.
    expect((await postCheck(app, key, getAddress(lowerOnly))).json()).toMatchObject({
      sanctioned: true,
      entityName: 'LAZARUS GROUP',
      walletAddress: getAddress(lowerOnly),
    });
    expect((await postCheck(app, key, tornado[1].toLowerCase())).json()).toMatchObject({ sanctioned: true, entityName: 'TORNADO CASH' });
    expect((await getStatus(app, key, person)).json()).toMatchObject({ sanctioned: true, entityName: 'SEMENOV, Roman' });

    // Both routes give the same shape; a clean address has no entityName.
    const clean = checksummed();
    const viaGet = (await getStatus(app, key, clean.toLowerCase())).json();
    const viaPost = (await postCheck(app, key, clean)).json();
    for (const out of [viaGet, viaPost]) {
      expect(out).toEqual({
        walletAddress: clean,
        sanctioned: false,
        checkedAt: expect.any(String),
        source: 'OFAC SDN List',
        listPublishedAt: '2024-09-27T00:00:00.000Z',
        listVersion: 1,
        listSource: 'import',
      });
    }
    expect(app.ctx.services.sanctions!.status(tornado[0])).toEqual({
      sanctioned: true,
      entityName: 'TORNADO CASH',
      listPublishedAt: new Date('2024-09-27T00:00:00Z'),
    });
    expect(app.ctx.services.sanctions!.status(clean)).toMatchObject({ sanctioned: false, entityName: null });
  });

  it('refuses addresses that are malformed or fail their EIP-55 checksum (400)', async () => {
    const bad = badChecksum(tornado[0]);
    const r1 = await getStatus(app, key, bad);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error).toBe('validation_failed');
    const r2 = await postCheck(app, key, bad);
    expect(r2.statusCode).toBe(400);
    expect(r2.json().fields).toEqual([expect.objectContaining({ field: 'walletAddress' })]);
    for (const v of ['0x1234', tornado[0] + '00', 'TXFzDHBQzZ2Qn3Tst9rE5w2sDsypyALWo3', 42, null]) {
      expect((await postCheck(app, key, v)).statusCode).toBe(400);
    }
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/compliance/sanctions-check', headers: key.headers, payload: {} })).statusCode,
    ).toBe(400);
    expect((await getStatus(app, key, '0xnothex')).statusCode).toBe(400);
  });

  it('treats an identical file as unchanged and refuses an older list unless forced', async () => {
    const xml = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), v1));
    const same = await upload(app, admin, xml, 'application/octet-stream');
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ status: 'unchanged', list: { version: 1 } });
    // Zipped, it is still the same list.
    const zipped = await app.inject({
      method: 'POST',
      url: '/api/v1/compliance/sanctions/import',
      headers: { 'content-type': 'application/zip', ...admin.auth },
      payload: zipArchive([{ name: 'SDN_ADVANCED.XML', data: Buffer.from(xml) }]),
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.json()).toMatchObject({ status: 'unchanged', list: { version: 1 } });

    const older = fileText(sdnCsv(v1.slice(0, 1)));
    const refused = await upload(app, admin, older, 'text/csv', '?publishedAt=2024-01-05');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('invalid_state');
    expect((await getStatus(app, key, person)).json().sanctioned).toBe(true);
  });

  it('refuses files that are not SDN files (400), JSON bodies (415) and bad dates (400)', async () => {
    const notSdn = await upload(app, admin, '<?xml version="1.0"?><feed><entry/></feed>', 'application/xml');
    expect(notSdn.statusCode).toBe(400);
    expect(notSdn.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'body' }] });
    expect((await upload(app, admin, 'a,b\n1,2\n', 'text/csv')).statusCode).toBe(400);
    const noAddresses = fileText(sdnCsv([{ id: 1, name: 'NOBODY', addresses: [] }]));
    expect((await upload(app, admin, noAddresses, 'text/csv')).json().details).toMatch(/no EVM/);
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/compliance/sanctions/import',
      headers: admin.auth,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect((await upload(app, admin, fileText(sdnCsv(v1)), 'text/csv', '?publishedAt=yesterday')).statusCode).toBe(400);
    // Nothing of this replaced the list in force.
    expect((await getStatus(app, key, tornado[0])).json()).toMatchObject({ sanctioned: true, listPublishedAt: '2024-09-27T00:00:00.000Z' });
  });

  it('replaces the list with a newer sdn.csv: removed addresses are no longer flagged', async () => {
    const added = checksummed();
    const v2: SdnParty[] = [
      { id: 40001, name: 'TORNADO CASH', addresses: [{ ticker: 'ETH', address: tornado[1] }] },
      { id: 40010, name: 'GARANTEX EUROPE OU', addresses: [{ ticker: 'ETH', address: added.toLowerCase() }] },
      { id: 40003, name: 'LAZARUS GROUP', addresses: [{ ticker: 'ETH', address: lowerOnly }] },
    ];
    const res = await upload(app, admin, fileText(sdnCsv(v2)), 'text/csv', '?publishedAt=2025-03-21');
    expect(res.statusCode).toBe(201);
    expect(res.json().list).toMatchObject({ version: 2, format: 'sdn_csv', entryCount: 3, publishedAt: '2025-03-21T00:00:00.000Z' });
    expect((await getStatus(app, key, tornado[0])).json()).toMatchObject({
      sanctioned: false,
      listPublishedAt: '2025-03-21T00:00:00.000Z',
    });
    expect((await getStatus(app, key, tornado[0])).json().entityName).toBeUndefined();
    expect((await getStatus(app, key, person)).json().sanctioned).toBe(false);
    expect((await postCheck(app, key, added)).json()).toMatchObject({ sanctioned: true, entityName: 'GARANTEX EUROPE OU' });
    expect((await postCheck(app, key, tornado[1])).json()).toMatchObject({ sanctioned: true });

    const lists = await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: admin.auth });
    expect(lists.statusCode).toBe(200);
    expect(lists.json().current.version).toBe(2);
    expect(lists.json().lists.map((l: { version: number }) => l.version)).toEqual([2, 1]);
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: (await signIn(app)).auth })).statusCode,
    ).toBe(403);
  });

  it('flags every real SDN ETH address of 2024-09-27 and no random address', async () => {
    const published = readFileSync(REAL_LIST, 'utf8')
      .split(/\r?\n/)
      .filter((l) => l && !l.startsWith('#'));
    expect(published).toHaveLength(152);
    // Ten addresses per SDN entry, in the published spelling (checksummed or lowercase).
    const parties: SdnParty[] = [];
    for (let i = 0; i < published.length; i += 10) {
      parties.push({
        id: 50000 + i,
        name: `SDN ENTRY ${i / 10 + 1}`,
        addresses: published.slice(i, i + 10).map((address) => ({ ticker: 'ETH', address })),
      });
    }
    const xml = fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), parties));
    // Older than the list in force, so it needs force.
    const res = await upload(app, admin, xml, 'application/xml', '?force=true');
    expect(res.statusCode).toBe(201);
    expect(res.json().list).toMatchObject({ entryCount: 152, publishedAt: '2024-09-27T00:00:00.000Z' });
    // Enterprise keys (2,000 requests/s each), taken in turn, keep this burst under the per-key limit.
    const keys = [await createKey(app, 'Enterprise'), await createKey(app, 'Enterprise')];
    for (const [i, address] of published.entries()) {
      const key = keys[i % 2];
      const viaGet = await getStatus(app, key, address);
      expect(viaGet.statusCode).toBe(200);
      expect(viaGet.json()).toMatchObject({
        walletAddress: getAddress(address),
        sanctioned: true,
        entityName: `SDN ENTRY ${Math.floor(i / 10) + 1}`,
      });
      expect((await postCheck(app, key, address.toLowerCase())).json().sanctioned).toBe(true);
    }
    const listed = new Set(published.map((a) => a.toLowerCase()));
    for (let i = 0; i < 1000; i++) {
      const a = checksummed();
      if (listed.has(a.toLowerCase())) continue;
      if (i < 100)
        expect((await getStatus(app, keys[i % 2], a)).json()).toMatchObject({
          sanctioned: false,
          listPublishedAt: '2024-09-27T00:00:00.000Z',
        });
      expect(app.ctx.services.sanctions!.status(a).sanctioned).toBe(false);
    }
    // The same list as sdn.csv parses to the same entries.
    const csv = await parseSanctionsFile(Readable.from([Buffer.from(fileText(sdnCsv(parties)))]));
    const fromXml = await parseSanctionsFile(Readable.from([Buffer.from(xml)]));
    expect(csv.entries.size).toBe(152);
    expect([...csv.entries.entries()].sort()).toEqual([...fromXml.entries.entries()].sort());
  });

  it('counts one query per screening and none for refused calls', async () => {
    const usage = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json().queriesThisMonth as number;
    const start = await usage();
    await getStatus(app, key, checksummed());
    await postCheck(app, key, checksummed());
    await postCheck(app, key, '0x1234');
    expect(await usage()).toBe(start + 2);
  });
});

describe('score follow-up of a new list', () => {
  let app: App;
  let admin: SignedIn;
  afterAll(async () => {
    await app?.close();
  });

  beforeAll(async () => {
    app = await createTestApp();
    admin = await signInAdmin(app);
  });
  const party = (id: number, addrs: string[]): SdnParty => ({
    id,
    name: `ENTRY ${id}`,
    addresses: addrs.map((address) => ({ ticker: 'ETH', address })),
  });

  it("moves a known wallet's COMPLIANCE score to 0 when listed and back when delisted; unknown wallets stay unscored", async () => {
    const scoring = app.ctx.services.scoring!;
    const [known, unknown] = [randomAddress(), randomAddress()];
    const before = (await scoring.getScore(known, 'COMPLIANCE')).score;
    expect(before).toBeGreaterThan(0);

    const r1 = await upload(
      app,
      admin,
      fileText(advancedXml(new Date('2024-09-27T00:00:00Z'), [party(1, [known, unknown])])),
      'application/xml',
    );
    expect(r1.statusCode).toBe(201);
    await eventually(async () => (await scoring.getScore(known, 'COMPLIANCE')).score === 0);
    expect((await scoring.getScore(known, 'OVERALL')).score).toBeLessThanOrEqual(100);
    expect(await scoring.knownAddresses!([unknown])).toEqual([]);

    const r2 = await upload(app, admin, fileText(advancedXml(new Date('2024-10-01T00:00:00Z'), [party(1, [unknown])])), 'application/xml');
    expect(r2.statusCode).toBe(201);
    await eventually(async () => (await scoring.getScore(known, 'COMPLIANCE')).score > 0);
    expect(await scoring.knownAddresses!([unknown])).toEqual([]);
  });

  it('recomputes, in the background, the known wallets whose status changed', async () => {
    const [a, b, c, d] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
    const known = new Set([a, c, d]);
    const calls: { address: string; cause: string; sanctioned: boolean | null }[] = [];
    // Records what the sanctions module asks of scoring, and what the screening says at that moment.
    const spy: Pick<ScoringService, 'recompute' | 'knownAddresses'> = {
      async recompute(address, cause) {
        calls.push({ address, cause, sanctioned: app.ctx.services.sanctions!.status(address).sanctioned });
        return [];
      },
      async knownAddresses(addresses) {
        return addresses.filter((x) => known.has(x));
      },
    };
    app.ctx.services.scoring = { ...app.ctx.services.scoring, ...spy } as ScoringService;

    const r1 = await upload(app, admin, fileText(advancedXml(new Date('2024-11-01T00:00:00Z'), [party(1, [a, b])])), 'application/xml');
    expect(r1.statusCode).toBe(201);
    await eventually(() => calls.length === 1);
    expect(calls).toEqual([{ address: a, cause: 'sanctions', sanctioned: true }]);

    const r2 = await upload(app, admin, fileText(advancedXml(new Date('2024-12-01T00:00:00Z'), [party(1, [b, c])])), 'application/xml');
    expect(r2.statusCode).toBe(201);
    await eventually(() => calls.length === 3);
    expect(calls.slice(1).sort((x, y) => x.address.localeCompare(y.address))).toEqual(
      [
        { address: a, cause: 'sanctions', sanctioned: false },
        { address: c, cause: 'sanctions', sanctioned: true },
      ].sort((x, y) => x.address.localeCompare(y.address)),
    );
    const lists = await eventually(async () => {
      const l = (await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: admin.auth })).json();
      return l.lists.every((x: { recomputeDoneAt: string | null }) => x.recomputeDoneAt) ? l : null;
    });
    expect(lists.lists.slice(0, 2).map((l: { recomputedCount: number }) => l.recomputedCount)).toEqual([2, 1]);
    expect(calls).toHaveLength(3);
  });
});
