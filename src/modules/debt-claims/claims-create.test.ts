import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { claimBody, post } from './test-helpers.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp({ config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000 } });
});
afterAll(async () => {
  await app?.close();
});

const create = (over: Record<string, unknown>) => post(app, '/debt-claims', claimBody(over));
const createRaw = (json: string) =>
  app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: json, headers: { 'content-type': 'application/json' } });
const fieldsOf = (res: { json(): { fields?: { field: string }[] } }) => [...new Set((res.json().fields ?? []).map((f) => f.field))].sort();

describe('POST /debt-claims', () => {
  it('files a Pending claim and returns the full record', async () => {
    const body = claimBody({ creditorAddress: randomAddress().toUpperCase().replace('0X', '0x') });
    const res = await post(app, '/debt-claims', body);
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      status: 'Pending',
      claimType: 'DefaultedLoan',
      amount: 1500.25,
      currency: 'USDC',
      description: body.description,
      evidenceTransactionHash: body.evidenceTransactionHash,
      chainId: 1,
      protocolName: 'Aave',
      resolutionNotes: null,
      inFavorOf: null,
      resolvedAt: null,
    });
    expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.location).toBe(`/api/v1/debt-claims/${c.id}`);
    expect(c.creditorAddress.toLowerCase()).toBe(body.creditorAddress.toLowerCase());
    expect(c.creditorAddress).not.toBe(c.creditorAddress.toLowerCase()); // EIP-55 form
    expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
    expect(c.amountExact).toBe('1500.25');
    // answered once stored: the evidence check runs after commit
    expect(c.verification).toMatchObject({
      creditorSignedIn: false,
      evidenceStatus: 'pending',
      evidenceFound: null,
      verified: false,
      weight: 0.25,
    });
    // no RPC is configured for chain 1 here: the evidence is unverifiable, the claim unverified
    const got = await eventually(async () => {
      const r = await app.inject({ url: `/api/v1/debt-claims/${c.id}` });
      return r.json().verification.evidenceStatus !== 'pending' ? r : null;
    });
    expect(got.statusCode).toBe(200);
    expect(got.json().verification).toMatchObject({ evidenceStatus: 'unverifiable', evidenceFound: null, verified: false, weight: 0.25 });
    expect({ ...got.json(), verification: null }).toEqual({ ...c, verification: null });
  });

  it('refuses an evidence hash that names no transaction (0x000...0) with 400', async () => {
    for (const h of [`0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`]) {
      const res = await create({ evidenceTransactionHash: h });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'evidenceTransactionHash' }] });
    }
  });

  it('keeps amounts exact: JSON numbers and numeric strings round-trip digit for digit', async () => {
    const big = '12345678901234567890.123456';
    const cases: [string, string][] = [
      [big, big], // a JSON number no binary float can hold
      [`"${big}"`, big], // the same as a string
      ['1.50', '1.50'], // trailing zeros are digits too
      ['0.000001', '0.000001'],
      ['1e-6', '0.000001'],
      ['2.5E3', '2500'],
      ['"99999999999999999999999999999.999999999999999999"', '99999999999999999999999999999.999999999999999999'],
    ];
    for (const [sent, stored] of cases) {
      const json = JSON.stringify(claimBody({ amount: 0 })).replace('"amount":0', `"amount":${sent}`);
      const res = await createRaw(json);
      expect(res.statusCode, `${sent}: ${res.body}`).toBe(201);
      expect(res.body).toContain(`"amount":${stored},`);
      const got = await app.inject({ url: `/api/v1/debt-claims/${res.json().id}` });
      expect(got.body).toContain(`"amount":${stored},`);
      const rows = await app.ctx.db.query<{ amount: string }>('SELECT amount::text AS amount FROM debt_claims WHERE id = $1', [
        res.json().id,
      ]);
      expect(rows[0].amount).toBe(stored);
    }
  });

  it('amount boundary: 0.000001 passes, 0.0000009, 0, negatives, junk and 19 decimals fail', async () => {
    expect((await create({ amount: 0.000001 })).statusCode).toBe(201);
    expect((await create({ amount: '0.000001' })).statusCode).toBe(201);
    for (const bad of [0.0000009, '0.0000009', 0, -1, '-5', 'abc', '', '1.2.3', '0x10', '1.1234567890123456789', true, { v: 1 }, null]) {
      const res = await create({ amount: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(fieldsOf(res)).toEqual(['amount']);
    }
    const tiny = await create({ amount: 0.0000009 });
    expect(tiny.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'amount', message: 'must be at least 0.000001' }] });
  });

  it('description must be 10-2,000 characters', async () => {
    expect((await create({ description: 'x'.repeat(9) })).statusCode).toBe(400);
    expect((await create({ description: 'x'.repeat(10) })).statusCode).toBe(201);
    expect((await create({ description: 'x'.repeat(2000) })).statusCode).toBe(201);
    const long = await create({ description: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(fieldsOf(long)).toEqual(['description']);
  });

  it('currency is 3-5 uppercase letters', async () => {
    for (const ok of ['USD', 'USDC', 'WSTETH'.slice(0, 5)]) expect((await create({ currency: ok })).statusCode, ok).toBe(201);
    for (const bad of ['US', 'USDCXX', 'usdc', 'Usdc', 'US1', '']) {
      const res = await create({ currency: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(fieldsOf(res)).toEqual(['currency']);
    }
  });

  it('evidenceTransactionHash is 0x + 64 hex', async () => {
    expect((await create({ evidenceTransactionHash: `0x${'AB'.repeat(32)}` })).statusCode).toBe(201);
    for (const bad of [`0x${'a'.repeat(63)}`, `0x${'a'.repeat(65)}`, 'a'.repeat(66), `0x${'g'.repeat(64)}`]) {
      const res = await create({ evidenceTransactionHash: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(fieldsOf(res)).toEqual(['evidenceTransactionHash']);
    }
  });

  it('chainId must be a supported chain', async () => {
    for (const ok of [1, 10, 137, 8453, 42161]) expect((await create({ chainId: ok })).statusCode, String(ok)).toBe(201);
    for (const bad of [0, 2, 5, 56, -1, 1.5, 'x']) {
      const res = await create({ chainId: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(fieldsOf(res)).toEqual(['chainId']);
    }
  });

  it('claimType, protocolName and addresses are checked', async () => {
    for (const t of ['DefaultedLoan', 'LiquidationShortfall', 'UnpaidInvoice', 'BrokenRepaymentPlan', 'Other']) {
      expect((await create({ claimType: t })).statusCode, t).toBe(201);
    }
    expect((await create({ claimType: 'defaultedloan' })).statusCode).toBe(400);
    expect((await create({ protocolName: 'p'.repeat(100) })).statusCode).toBe(201);
    expect(fieldsOf(await create({ protocolName: 'p'.repeat(101) }))).toEqual(['protocolName']);
    expect(fieldsOf(await create({ creditorAddress: '0x1234' }))).toEqual(['creditorAddress']);
    // mixed case with a wrong EIP-55 checksum
    expect(fieldsOf(await create({ debtorAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046'.replace('dA6', 'Da6') }))).toEqual([
      'debtorAddress',
    ]);
    const same = randomAddress();
    const res = await create({ creditorAddress: same, debtorAddress: same.toUpperCase().replace('0X', '0x') });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([{ field: 'debtorAddress', message: 'must differ from creditorAddress' }]);
  });

  it('every field is required, and one 400 lists every offending field', async () => {
    const res = await post(app, '/debt-claims', {});
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(
      [
        'amount',
        'chainId',
        'claimType',
        'creditorAddress',
        'currency',
        'debtorAddress',
        'description',
        'evidenceTransactionHash',
        'protocolName',
      ].sort(),
    );
    const two = await create({ amount: '0.0000001', currency: 'usd' });
    expect(fieldsOf(two)).toEqual(['amount', 'currency']);
  });

  it('rejects bodies that are not JSON objects', async () => {
    expect((await createRaw('{"amount": 1,')).statusCode).toBe(400);
    expect((await createRaw('')).statusCode).toBe(400);
    expect((await createRaw('[1,2]')).statusCode).toBe(400);
    const text = await app.inject({
      method: 'POST',
      url: '/api/v1/debt-claims',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('unsupported_media_type');
  });
});

describe('GET /debt-claims/{id}', () => {
  it('404 for an unknown id, 400 for a non-GUID', async () => {
    const nf = await app.inject({ url: '/api/v1/debt-claims/6f1c1d7e-8a53-4b8e-9d55-1f8f7f0f0a11' });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error).toBe('not_found');
    const bad = await app.inject({ url: '/api/v1/debt-claims/not-a-guid' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('id');
  });
});

describe('OpenAPI', () => {
  it('documents every debt-claim route with its state rules, and amounts as numbers', async () => {
    const doc = (await app.inject({ url: '/swagger/v1/swagger.json' })).json();
    const ops: Record<string, { description: string; responses: Record<string, unknown> }> = {};
    for (const [path, item] of Object.entries<
      Record<string, { operationId?: string; description: string; responses: Record<string, unknown> }>
    >(doc.paths)) {
      for (const op of Object.values(item))
        if (op.operationId?.startsWith('debtClaims.')) ops[op.operationId] = { ...op, description: `${path} ${op.description}` };
    }
    expect(Object.keys(ops).sort()).toEqual(
      ['createClaim', 'disputeClaim', 'getClaim', 'listByCreditor', 'listByDebtor', 'resolveClaim', 'withdrawClaim'].map(
        (o) => `debtClaims.${o}`,
      ),
    );
    expect(ops['debtClaims.resolveClaim'].description).toMatch(/Pending -> Resolved/);
    expect(ops['debtClaims.resolveClaim'].description).toMatch(/Disputed -> Resolved/);
    expect(ops['debtClaims.disputeClaim'].description).toMatch(/Pending -> Disputed, by the debtor only/);
    expect(ops['debtClaims.withdrawClaim'].description).toMatch(/Pending -> Withdrawn, by the creditor only/);
    expect(ops['debtClaims.createClaim'].description).toMatch(/per minute per client IP/);
    for (const id of ['debtClaims.disputeClaim', 'debtClaims.withdrawClaim'])
      expect(Object.keys(ops[id].responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
    expect(Object.keys(ops['debtClaims.resolveClaim'].responses)).toEqual(expect.arrayContaining(['401', '403', '404', '409']));
    // response schemas may be named components ($ref): resolve them
    type Schema = { $ref?: string; properties: Record<string, { type?: string; enum?: unknown[]; nullable?: boolean }> };
    const schemaOf = (id: string, status: string): Schema => {
      const sch = (ops[id].responses[status] as { content: Record<string, { schema: Schema }> }).content['application/json'].schema;
      return sch.$ref ? doc.components.schemas[sch.$ref.replace('#/components/schemas/', '')] : sch;
    };
    const claim = schemaOf('debtClaims.getClaim', '200');
    expect(claim.properties.amount.type).toBe('number');
    expect(claim.properties.amountExact.type).toBe('string');
    // the create answer carries inFavorOf: null, which the published enum admits
    const created = schemaOf('debtClaims.createClaim', '201');
    expect(created.properties.inFavorOf.enum).toContain(null);
    expect(created.properties.verification).toBeDefined();
    expect(Object.keys(ops['debtClaims.createClaim'].responses)).toEqual(expect.arrayContaining(['201', '400', '403', '429']));
    const d = ops['debtClaims.createClaim'].description;
    for (const rule of [
      /signed in/,
      /evidenceTransactionHash/,
      /history/,
      /at most 20 points/,
      /compounding/,
      /revisedScore/,
      /0x000\.\.\.0\) is refused with 400/,
    ])
      expect(d).toMatch(rule);
  });
});
