import { describe, expect, it } from 'vitest';
import { randomAddress, signIn } from '../../../test/helpers/app.js';
import { claimsTestApp, fileClaim, post } from './test-helpers.js';

const claims = claimsTestApp();

const REASON = 'I repaid this loan in full last month';
const NOTES = 'Checked on-chain: repayment confirmed';

async function inState(state: 'Pending' | 'Disputed' | 'Resolved' | 'Withdrawn') {
  const { body, claim } = await fileClaim(claims.app);
  if (state === 'Disputed' || state === 'Resolved') {
    expect(
      (await post(claims.app, `/debt-claims/${claim.id}/dispute`, { debtorAddress: body.debtorAddress, reason: REASON })).statusCode,
    ).toBe(200);
  }
  if (state === 'Resolved')
    expect((await post(claims.app, `/debt-claims/${claim.id}/resolve`, { resolutionNotes: NOTES }, claims.admin.auth)).statusCode).toBe(
      200,
    );
  if (state === 'Withdrawn')
    expect((await post(claims.app, `/debt-claims/${claim.id}/withdraw`, { creditorAddress: body.creditorAddress })).statusCode).toBe(200);
  return { body, id: claim.id };
}

const get = async (id: string) => (await claims.app.inject({ url: `/api/v1/debt-claims/${id}` })).json();

describe('debt claim transitions', () => {
  it('Pending -> Disputed by the debtor: reason becomes resolutionNotes, updatedAt moves', async () => {
    const { body, claim } = await fileClaim(claims.app);
    const res = await post(claims.app, `/debt-claims/${claim.id}/dispute`, { debtorAddress: body.debtorAddress, reason: REASON });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(Object.keys(r).sort()).toEqual(['id', 'resolutionNotes', 'status', 'updatedAt']);
    expect(r).toMatchObject({ id: claim.id, status: 'Disputed', resolutionNotes: REASON });
    const full = await get(claim.id);
    expect(full.status).toBe('Disputed');
    expect(full.updatedAt).toBe(r.updatedAt);
    expect(Date.parse(full.updatedAt)).toBeGreaterThanOrEqual(Date.parse(full.createdAt));
    expect(full.resolvedAt).toBeNull();
  });

  it('Disputed -> Resolved by an claims.admin, in the debtor favour', async () => {
    const { id } = await inState('Disputed');
    const res = await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES, inFavorOf: 'debtor' }, claims.admin.auth);
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(Object.keys(r).sort()).toEqual(['id', 'inFavorOf', 'resolutionNotes', 'resolvedAt', 'status', 'updatedAt']);
    expect(r).toMatchObject({ id, status: 'Resolved', resolutionNotes: NOTES, inFavorOf: 'debtor' });
    expect(r.resolvedAt).toBe(r.updatedAt);
    expect(await get(id)).toMatchObject({ status: 'Resolved', inFavorOf: 'debtor', resolvedAt: r.resolvedAt });
    const audit = await claims.app.ctx.db.query<{ actor: string }>(
      `SELECT actor FROM audit_log WHERE target = $1 AND action = 'debt_claim.resolve'`,
      [`debt_claim:${id}`],
    );
    expect(audit).toEqual([{ actor: `admin:${claims.admin.address.toLowerCase()}` }]);
  });

  it('Pending -> Resolved directly by an claims.admin, in the creditor favour by default', async () => {
    const { id } = await inState('Pending');
    const res = await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES }, claims.admin.auth);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Resolved', inFavorOf: 'creditor' });
  });

  it('Pending -> Withdrawn by the creditor', async () => {
    const { body, claim } = await fileClaim(claims.app);
    const res = await post(claims.app, `/debt-claims/${claim.id}/withdraw`, {
      creditorAddress: body.creditorAddress.toUpperCase().replace('0X', '0x'),
    });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(Object.keys(r).sort()).toEqual(['id', 'resolvedAt', 'status', 'updatedAt']);
    expect(r).toMatchObject({ id: claim.id, status: 'Withdrawn' });
    expect(r.resolvedAt).toBe(r.updatedAt);
    const events = await claims.app.ctx.db.query<{ from_status: string | null; to_status: string }>(
      'SELECT from_status, to_status FROM debt_claim_events WHERE claim_id = $1 ORDER BY id',
      [claim.id],
    );
    expect(events).toEqual([
      { from_status: null, to_status: 'Pending' },
      { from_status: 'Pending', to_status: 'Withdrawn' },
    ]);
  });

  it('every forbidden transition gets 409', async () => {
    const cases: [string, 'dispute' | 'withdraw' | 'resolve'][] = [
      ['Disputed', 'dispute'],
      ['Resolved', 'dispute'],
      ['Withdrawn', 'dispute'],
      ['Disputed', 'withdraw'],
      ['Resolved', 'withdraw'],
      ['Withdrawn', 'withdraw'],
      ['Resolved', 'resolve'],
      ['Withdrawn', 'resolve'],
    ];
    for (const [state, action] of cases) {
      const { body, id } = await inState(state as 'Disputed');
      const payload =
        action === 'dispute'
          ? { debtorAddress: body.debtorAddress, reason: REASON }
          : action === 'withdraw'
            ? { creditorAddress: body.creditorAddress }
            : { resolutionNotes: NOTES };
      const res = await post(claims.app, `/debt-claims/${id}/${action}`, payload, action === 'resolve' ? claims.admin.auth : {});
      expect(res.statusCode, `${action} from ${state}`).toBe(409);
      expect(res.json().error).toBe('invalid_state');
      expect((await get(id)).status).toBe(state);
    }
  });
});

describe('debt claim parties', () => {
  it('only the debtor disputes and only the creditor withdraws (403)', async () => {
    const { body, id } = await inState('Pending');
    for (const who of [body.creditorAddress, randomAddress()]) {
      const res = await post(claims.app, `/debt-claims/${id}/dispute`, { debtorAddress: who, reason: REASON });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    for (const who of [body.debtorAddress, randomAddress()]) {
      expect((await post(claims.app, `/debt-claims/${id}/withdraw`, { creditorAddress: who })).statusCode).toBe(403);
    }
    expect((await get(id)).status).toBe('Pending');
  });

  it('a JWT, when sent, must be the acting wallet', async () => {
    const debtor = await signIn(claims.app);
    const creditor = await signIn(claims.app);
    const { id } = await inState('Pending');
    // Right body, someone else's JWT: 403.
    const c = await fileClaim(claims.app, { creditorAddress: creditor.address, debtorAddress: debtor.address });
    expect(
      (await post(claims.app, `/debt-claims/${c.claim.id}/dispute`, { debtorAddress: debtor.address, reason: REASON }, creditor.auth))
        .statusCode,
    ).toBe(403);
    expect(
      (await post(claims.app, `/debt-claims/${c.claim.id}/withdraw`, { creditorAddress: creditor.address }, debtor.auth)).statusCode,
    ).toBe(403);
    // A bad token is refused even though none is needed.
    expect(
      (await post(claims.app, `/debt-claims/${id}/withdraw`, { creditorAddress: randomAddress() }, { authorization: 'Bearer nope' }))
        .statusCode,
    ).toBe(401);
    // Filing in someone else's name with a JWT: 403.
    expect((await post(claims.app, '/debt-claims', { ...c.body, creditorAddress: randomAddress() }, creditor.auth)).statusCode).toBe(403);
    // The right JWT works.
    expect(
      (await post(claims.app, `/debt-claims/${c.claim.id}/dispute`, { debtorAddress: debtor.address, reason: REASON }, debtor.auth))
        .statusCode,
    ).toBe(200);
  });

  it('resolve is for admins: 401 without a JWT, 403 for a non-admin', async () => {
    const { id } = await inState('Disputed');
    const none = await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    expect(
      (await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES }, { authorization: 'Bearer junk' })).statusCode,
    ).toBe(401);
    const user = await signIn(claims.app);
    const res = await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES }, user.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect((await get(id)).status).toBe('Disputed');
  });

  it('validates transition bodies and ids', async () => {
    const { body, id } = await inState('Pending');
    expect(
      (await post(claims.app, `/debt-claims/${id}/dispute`, { debtorAddress: body.debtorAddress, reason: 'x'.repeat(9) })).statusCode,
    ).toBe(400);
    expect(
      (await post(claims.app, `/debt-claims/${id}/dispute`, { debtorAddress: body.debtorAddress, reason: 'x'.repeat(2001) })).statusCode,
    ).toBe(400);
    expect((await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: 'short' }, claims.admin.auth)).statusCode).toBe(400);
    expect(
      (await post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES, inFavorOf: 'nobody' }, claims.admin.auth)).statusCode,
    ).toBe(400);
    expect((await post(claims.app, `/debt-claims/${id}/withdraw`, {})).statusCode).toBe(400);
    const unknown = '0b7f3c1e-9c1a-4d55-8f0e-2a7b9e1d4c33';
    expect((await post(claims.app, `/debt-claims/${unknown}/dispute`, { debtorAddress: randomAddress(), reason: REASON })).statusCode).toBe(
      404,
    );
    expect((await post(claims.app, `/debt-claims/${unknown}/withdraw`, { creditorAddress: randomAddress() })).statusCode).toBe(404);
    expect((await post(claims.app, `/debt-claims/${unknown}/resolve`, { resolutionNotes: NOTES }, claims.admin.auth)).statusCode).toBe(404);
    expect((await post(claims.app, '/debt-claims/123/withdraw', { creditorAddress: randomAddress() })).statusCode).toBe(400);
  });
});

describe('concurrent transitions', () => {
  it('a double withdraw: exactly one 200, the other 409', async () => {
    for (let i = 0; i < 3; i++) {
      const { body, id } = await inState('Pending');
      const results = await Promise.all(
        [0, 1].map(() => post(claims.app, `/debt-claims/${id}/withdraw`, { creditorAddress: body.creditorAddress })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    }
  });

  it('withdraw racing dispute and resolve: exactly one wins', async () => {
    const { body, id } = await inState('Pending');
    const results = await Promise.all([
      post(claims.app, `/debt-claims/${id}/withdraw`, { creditorAddress: body.creditorAddress }),
      post(claims.app, `/debt-claims/${id}/dispute`, { debtorAddress: body.debtorAddress, reason: REASON }),
      post(claims.app, `/debt-claims/${id}/resolve`, { resolutionNotes: NOTES }, claims.admin.auth),
    ]);
    const codes = results.map((r) => r.statusCode);
    // resolve may legitimately follow a winning dispute (Disputed -> Resolved); withdraw and dispute never both win.
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
    expect(codes[0] === 200 && codes[1] === 200).toBe(false);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    const events = await claims.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM debt_claim_events WHERE claim_id = $1', [
      id,
    ]);
    expect(events[0].n).toBe(1 + codes.filter((c) => c === 200).length);
  });
});
