import { describe, expect, it } from 'vitest';
import { createTestApp, randomAddress, signIn } from '../../../test/helpers/app.js';
import { claimsTestApp, claimBody, fileClaim, post } from './test-helpers.js';

const claims = claimsTestApp();

describe('GET /debt-claims/debtor/{address}', () => {
  it('sums Pending and Disputed amounts exactly, per currency, and counts every claim', async () => {
    const debtor = randomAddress();
    const a = await fileClaim(claims.app, { debtorAddress: debtor, amount: '0.1', currency: 'USDC' });
    const b = await fileClaim(claims.app, { debtorAddress: debtor, amount: '0.2', currency: 'USDC' });
    await fileClaim(claims.app, { debtorAddress: debtor, amount: '12345678901234567890.123456', currency: 'USDC' });
    const w = await fileClaim(claims.app, { debtorAddress: debtor, amount: '1000', currency: 'USDC' });
    const r = await fileClaim(claims.app, { debtorAddress: debtor, amount: '2000', currency: 'USDC' });
    await post(claims.app, `/debt-claims/${b.claim.id}/dispute`, { debtorAddress: debtor, reason: 'not my loan at all' });
    await post(claims.app, `/debt-claims/${w.claim.id}/withdraw`, { creditorAddress: w.body.creditorAddress });
    await post(claims.app, `/debt-claims/${r.claim.id}/resolve`, { resolutionNotes: 'creditor proved the debt' }, claims.admin.auth);

    const res = await claims.app.inject({ url: `/api/v1/debt-claims/debtor/${debtor}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.debtorAddress.toLowerCase()).toBe(debtor);
    expect(body.claimCount).toBe(5);
    expect(body.claims).toHaveLength(5);
    expect(body.nextCursor).toBeNull();
    // 0.1 + 0.2 + big, exactly (a float would say 0.30000000000000004 and lose the big one's digits)
    expect(res.body).toContain('"totalOutstandingDebt":12345678901234567890.423456,');
    expect(res.body).toContain('"outstandingByCurrency":{"USDC":12345678901234567890.423456}');
    // JSON.parse rounds those numbers; the exact strings beside them do not
    expect(body.totalOutstandingDebtExact).toBe('12345678901234567890.423456');
    expect(body.outstandingByCurrencyExact).toEqual({ USDC: '12345678901234567890.423456' });
    expect(body.claims.find((c: { id: string }) => c.id === a.claim.id).amountExact).toBe('0.1');
    expect(Object.keys(body.claims[0]).sort()).toEqual(
      ['amount', 'amountExact', 'claimType', 'createdAt', 'creditorAddress', 'currency', 'id', 'protocolName', 'status', 'verified'].sort(),
    );
    // newest first
    expect(body.claims.map((c: { id: string }) => c.id)[4]).toBe(a.claim.id);
    expect(body.claims.map((c: { status: string }) => c.status)).toEqual(['Resolved', 'Withdrawn', 'Pending', 'Disputed', 'Pending']);
  });

  it('several currencies: totalOutstandingDebt is null and outstandingByCurrency has each', async () => {
    const debtor = randomAddress();
    await fileClaim(claims.app, { debtorAddress: debtor, amount: 5, currency: 'USDC' });
    await fileClaim(claims.app, { debtorAddress: debtor, amount: '1.25', currency: 'ETH' });
    await fileClaim(claims.app, { debtorAddress: debtor, amount: '0.75', currency: 'ETH' });
    const res = await claims.app.inject({ url: `/api/v1/debt-claims/debtor/${debtor}` });
    expect(res.json().totalOutstandingDebt).toBeNull();
    expect(res.body).toContain('"outstandingByCurrency":{"ETH":2.00,"USDC":5}');
  });

  it('a wallet without claims gets an empty listing with zero outstanding', async () => {
    const res = await claims.app.inject({ url: `/api/v1/debt-claims/debtor/${randomAddress()}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalOutstandingDebt: 0, outstandingByCurrency: {}, claimCount: 0, claims: [], nextCursor: null });
    expect((await claims.app.inject({ url: '/api/v1/debt-claims/debtor/0x123' })).statusCode).toBe(400);
  });

  it('pages with limit and cursor, newest first, without gaps or repeats', async () => {
    const debtor = randomAddress();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await fileClaim(claims.app, { debtorAddress: debtor })).claim.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { statusCode: number; json(): { claimCount: number; claims: { id: string }[]; nextCursor: string | null } } =
        await claims.app.inject({
          url: `/api/v1/debt-claims/debtor/${debtor}?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.claimCount).toBe(5);
      seen.push(...body.claims.map((c: { id: string }) => c.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'cursor=garbage']) {
      expect((await claims.app.inject({ url: `/api/v1/debt-claims/debtor/${debtor}?${bad}` })).statusCode, bad).toBe(400);
    }
  });
});

describe('GET /debt-claims/creditor/{address}', () => {
  it('lists what the creditor filed, paged', async () => {
    const creditor = randomAddress();
    for (let i = 0; i < 3; i++) await fileClaim(claims.app, { creditorAddress: creditor });
    const res = await claims.app.inject({ url: `/api/v1/debt-claims/creditor/${creditor}?limit=2` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.creditorAddress.toLowerCase()).toBe(creditor);
    expect(body.claimCount).toBe(3);
    expect(body.claims).toHaveLength(2);
    expect(Object.keys(body.claims[0]).sort()).toEqual(
      ['amount', 'amountExact', 'claimType', 'createdAt', 'currency', 'debtorAddress', 'id', 'protocolName', 'status', 'verified'].sort(),
    );
    const next = await claims.app.inject({ url: `/api/v1/debt-claims/creditor/${creditor}?limit=2&cursor=${body.nextCursor}` });
    expect(next.json().claims).toHaveLength(1);
    expect(next.json().nextCursor).toBeNull();
  });
});

describe('ctx.services.debtClaims.signalsFor', () => {
  it('returns every claim with its status, withdrawn and resolved ones included', async () => {
    const debtor = randomAddress();
    const p = await fileClaim(claims.app, { debtorAddress: debtor, amount: '12345678901234567890.123456' });
    const w = await fileClaim(claims.app, { debtorAddress: debtor });
    const d = await fileClaim(claims.app, { debtorAddress: debtor });
    await post(claims.app, `/debt-claims/${w.claim.id}/withdraw`, { creditorAddress: w.body.creditorAddress });
    await post(
      claims.app,
      `/debt-claims/${d.claim.id}/resolve`,
      { resolutionNotes: 'the debtor showed a repayment', inFavorOf: 'debtor' },
      claims.admin.auth,
    );
    // Re-filing after a withdrawal adds a claim; the withdrawn one stays visible.
    await fileClaim(claims.app, { debtorAddress: debtor, creditorAddress: w.body.creditorAddress });
    const signals = await claims.app.ctx.services.debtClaims!.signalsFor(debtor.toUpperCase().replace('0X', '0x'));
    expect(signals.map((s) => [s.status, s.inFavorOf])).toEqual([
      ['Pending', null],
      ['Withdrawn', null],
      ['Resolved', 'debtor'],
      ['Pending', null],
    ]);
    expect(signals[0]).toMatchObject({
      id: p.claim.id,
      amount: '12345678901234567890.123456',
      currency: 'USDC',
      creditorAddress: p.body.creditorAddress,
    });
    expect(signals[0].createdAt).toBeInstanceOf(Date);
    expect(signals[1].resolvedAt).toBeInstanceOf(Date);
    // bulk scoring reads the same in one query, in the order asked, a wallet without claims included
    const other = randomAddress();
    expect(await claims.app.ctx.services.debtClaims!.signalsForMany!([other, debtor.toUpperCase().replace('0X', '0x'), other])).toEqual([
      [],
      signals,
      [],
    ]);
  });
});

describe('abuse limits', () => {
  it('limits claims per creditor and per client IP, signed in or not (429 with Retry-After)', async () => {
    const limited = await createTestApp({ config: { claimsPerIpPerMinute: 4, claimsPerCreditorPerMinute: 2 } });
    try {
      const creditor = randomAddress();
      const file = (over: Record<string, unknown>, headers: Record<string, string> = {}) =>
        limited.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: claimBody(over), headers });
      expect((await file({ creditorAddress: creditor })).statusCode).toBe(201);
      expect((await file({ creditorAddress: creditor })).statusCode).toBe(201);
      const third = await file({ creditorAddress: creditor });
      expect(third.statusCode).toBe(429);
      expect(third.json().error).toBe('rate_limited');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      // Other creditors from the same IP: one more fits under the per-IP limit of 4 (the 429 above counted too).
      expect((await file({})).statusCode).toBe(201);
      const ip = await file({});
      expect(ip.statusCode).toBe(429);
      expect(ip.json().details).toMatch(/client address/);
      // Signing in earns no extra claims: the per-IP limit holds for JWT callers too (claims-attacks.test.ts).
      const me = await signIn(limited);
      expect((await file({ creditorAddress: me.address }, me.auth)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('CREDENCE_STRICT_OWNERSHIP=true', () => {
  it('makes the acting wallet JWT mandatory', async () => {
    const strict = await createTestApp({ config: { strictOwnership: true, claimsPerIpPerMinute: 1000, claimsPerCreditorPerMinute: 1000 } });
    try {
      const creditor = await signIn(strict);
      const debtor = await signIn(strict);
      const body = claimBody({ creditorAddress: creditor.address, debtorAddress: debtor.address });
      expect((await post(strict, '/debt-claims', body)).statusCode).toBe(401);
      const res = await post(strict, '/debt-claims', body, creditor.auth);
      expect(res.statusCode).toBe(201);
      const id = res.json().id;
      expect(
        (await post(strict, `/debt-claims/${id}/dispute`, { debtorAddress: debtor.address, reason: 'never borrowed anything' })).statusCode,
      ).toBe(401);
      expect((await post(strict, `/debt-claims/${id}/withdraw`, { creditorAddress: creditor.address })).statusCode).toBe(401);
      expect((await post(strict, `/debt-claims/${id}/withdraw`, { creditorAddress: creditor.address }, creditor.auth)).statusCode).toBe(
        200,
      );
    } finally {
      await strict.close();
    }
  });
});
