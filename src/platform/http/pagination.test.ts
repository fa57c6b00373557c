// Every list operation in the OpenAPI document follows one pagination contract: `limit` + opaque `cursor`,
// answered with `nextCursor` + `hasMore` (or a `Link: <...>; rel="next"` header where the body is a bare array);
// a tampered cursor, or one from another list, is 400. The lists are found in the live document, so a new list
// without the contract (or without a way to call it here) fails this test.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, signIn, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import type { App } from './types.js';
import { decodeCursor, encodeCursor } from './pagination.js';

type InjectResponse = Awaited<ReturnType<App['inject']>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GET operations that answer an array but are not lists of records, and why. */
const NOT_LISTS: Record<string, string> = {
  'reputation.getWalletScores': 'the nine categories of one wallet, always nine',
  'reputation.getCategoryScore': 'the factors of one score',
  'proofs.listVerificationKeys': 'one key per circuit of this deployment',
  'disputes.getDispute': "one dispute's own status history",
  'compliance.listSanctionsLists': 'a report: the list in force and the 20 latest imports (admin)',
  'billing.getDailyUsage': 'a fixed window of `days` days, one entry per day',
};

let app: App;
let doc: Json;
let receiver: Receiver;
beforeAll(async () => {
  app = await createTestApp();
  receiver = await startReceiver();
  doc = (await app.inject({ url: '/swagger/v1/swagger.json' })).json();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

const deref = (s: Json | undefined): Json | undefined =>
  s?.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s?.allOf?.length === 1 ? deref(s.allOf[0]) : s;

/** Every GET whose 200 body is an array, or an object with an array property. */
function listOperations() {
  const out: { path: string; op: Json; arrayBody: boolean; items: string | null }[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const op = item.get;
    const body = deref(op?.responses?.['200']?.content?.['application/json']?.schema);
    if (!op || !body) continue;
    if (body.type === 'array') out.push({ path, op, arrayBody: true, items: null });
    else {
      const arrays = Object.entries<Json>(body.properties ?? {}).filter(([, v]) => deref(v)?.type === 'array');
      if (arrays.length) out.push({ path, op, arrayBody: false, items: arrays[0][0] });
    }
  }
  return out.filter((o) => !(o.op.operationId in NOT_LISTS));
}

interface Call {
  url: string;
  headers: Record<string, string>;
}

async function revise(address: string, score: number) {
  const admin = await signInAdmin(app);
  await app.ctx.services.scoring!.applyRevisedScore(address, 'GOVERNANCE', score, admin.address, randomUUID());
}
async function registeredDid(owner: SignedIn) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().did as string;
}
async function webhookOf(headers: Record<string, string>) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers,
    payload: { url: receiver.url, walletAddress: randomAddress() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** How to call each list with at least three records behind it. */
const SETUP: Record<string, () => Promise<Call>> = {
  'reputation.getScoreHistory': async () => {
    const key = await createKey(app, 'Starter');
    const address = randomAddress();
    for (const s of [600, 610, 620]) await revise(address, s);
    return { url: `/api/v1/reputation/${address}/GOVERNANCE/history`, headers: key.headers };
  },
  'reputation.listScoreChanges': async () => {
    const key = await createKey(app, 'Starter');
    const address = randomAddress();
    for (const s of [600, 610, 620]) await revise(address, s);
    return { url: `/api/v1/reputation/changes?address=${address}&category=GOVERNANCE`, headers: key.headers };
  },
  'billing.listApiKeys': async () => {
    const owner = await signIn(app);
    for (let i = 0; i < 3; i++) await createKey(app, 'Free', owner);
    return { url: '/api/v1/billing/api-keys', headers: owner.auth };
  },
  'identity.listCredentials': async () => {
    const owner = await signIn(app);
    const did = await registeredDid(owner);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/identity/${did}/credentials`,
        headers: owner.auth,
        payload: { credentialType: 'MembershipCredential', subject: `{"n":${i}}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    return { url: `/api/v1/identity/${did}/credentials`, headers: owner.auth };
  },
  'compliance.listAgeChecks': async () => {
    const owner = await signIn(app);
    const key = await createKey(app, 'Starter');
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/compliance/verify-age',
        headers: key.headers,
        payload: { walletAddress: owner.address, minimumAge: 18 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return { url: '/api/v1/compliance/age-checks', headers: owner.auth };
  },
  'disputes.listWalletDisputes': async () => {
    const key = await createKey(app, 'Starter');
    const wallet = randomAddress();
    for (let i = 0; i < 3; i++) {
      const payload = {
        walletAddress: wallet,
        category: 'OVERALL',
        reason: 'InaccurateScore',
        description: `A dispute for the pagination test ${i}`,
      };
      const res = await app.inject({ method: 'POST', url: '/api/v1/dispute', headers: key.headers, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
    return { url: `/api/v1/dispute/wallet/${wallet}`, headers: key.headers };
  },
  'disputes.listDisputeQueue': async () => {
    const key = await createKey(app, 'Starter');
    const wallet = randomAddress();
    for (let i = 0; i < 3; i++) {
      const payload = {
        walletAddress: wallet,
        category: 'OVERALL',
        reason: 'InaccurateScore',
        description: `A dispute for the queue pagination test ${i}`,
      };
      const res = await app.inject({ method: 'POST', url: '/api/v1/dispute', headers: key.headers, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
    const admin = await signInAdmin(app);
    return { url: `/api/v1/disputes?status=Pending&walletAddress=${wallet}`, headers: admin.auth };
  },
  'audit.listAuditLog': async () => {
    const owner = await signIn(app);
    for (let i = 0; i < 3; i++) {
      const key = await createKey(app, 'Free', owner);
      expect((await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${key.id}`, headers: owner.auth })).statusCode).toBe(204);
    }
    const admin = await signInAdmin(app);
    return { url: `/api/v1/audit-log?action=api_key.revoke&actor=${owner.address}`, headers: admin.auth };
  },
  'debtClaims.listByDebtor': async () => {
    const { debtor } = await claims();
    return { url: `/api/v1/debt-claims/debtor/${debtor}`, headers: {} };
  },
  'debtClaims.listByCreditor': async () => {
    const { creditor } = await claims();
    return { url: `/api/v1/debt-claims/creditor/${creditor}`, headers: {} };
  },
  'webhooks.listWebhooks': async () => {
    const key = await createKey(app, 'Growth');
    for (let i = 0; i < 3; i++) await webhookOf(key.headers);
    return { url: '/api/v1/webhooks', headers: key.headers };
  },
  'webhooks.listDeliveries': async () => {
    const key = await createKey(app, 'Growth');
    const id = await webhookOf(key.headers);
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ method: 'POST', url: `/api/v1/webhooks/${id}/test`, headers: key.headers })).statusCode).toBe(202);
    return { url: `/api/v1/webhooks/${id}/deliveries`, headers: key.headers };
  },
};

async function claims() {
  const creditor = randomAddress();
  const debtor = randomAddress();
  for (let i = 0; i < 3; i++) {
    const payload = {
      creditorAddress: creditor,
      debtorAddress: debtor,
      claimType: 'UnpaidInvoice',
      amount: `${10 + i}.5`,
      currency: 'USDC',
      description: 'Invoice for the pagination test, unpaid',
      evidenceTransactionHash: `0x${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`,
      chainId: 1,
      protocolName: 'Direct',
    };
    const res = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { creditor, debtor };
}

const withQuery = (url: string, q: string) => `${url}${url.includes('?') ? '&' : '?'}${q}`;
/** The checksum's last character changed: the cursor no longer matches what the service wrote. */
const tamper = (c: string) => c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A');

describe('the pagination contract', () => {
  it('is documented once, in the API description', () => {
    expect(doc.info.description).toContain('Pagination:');
    expect(doc.components.headers.Link.description).toContain('rel="next"');
  });

  it('every list operation in the document takes limit + cursor and answers nextCursor + hasMore (or Link)', () => {
    const lists = listOperations();
    expect(lists.length).toBeGreaterThanOrEqual(10);
    for (const { path, op, arrayBody, items } of lists) {
      const where = `${op.operationId} (GET ${path})`;
      const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
      expect(query, where).toEqual(expect.arrayContaining(['limit', 'cursor']));
      if (arrayBody) expect(Object.keys(op.responses['200'].headers ?? {}), where).toContain('Link');
      else {
        const body = deref(op.responses['200'].content['application/json'].schema)!;
        expect(Object.keys(body.properties), where).toEqual(expect.arrayContaining([items, 'nextCursor', 'hasMore']));
        expect(body.required ?? [], where).toEqual(expect.arrayContaining(['nextCursor', 'hasMore']));
      }
      expect(SETUP[op.operationId], `${where}: add how to call it to SETUP in this test`).toBeDefined();
    }
  });

  // one walk per list: three records, pages of one, no repeats; then tampered and foreign cursors answer 400
  const foreign = encodeCursor('another_list', ['2025-01-01T00:00:00.000000Z', randomUUID()]);
  for (const operationId of Object.keys(SETUP)) {
    it(`${operationId}: pages of one walk every record once; a tampered or foreign cursor is 400`, async () => {
      const found = listOperations().find((o) => o.op.operationId === operationId);
      expect(found, `${operationId} is not a list in the document any more`).toBeDefined();
      const call = await SETUP[operationId]();
      const seen: string[] = [];
      let next: string | null = withQuery(call.url, 'limit=1');
      let firstCursor: string | null = null;
      for (let pages = 0; next && pages < 10; pages++) {
        const res: InjectResponse = await app.inject({ method: 'GET', url: next, headers: call.headers });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        const rows: Json[] = found!.arrayBody ? body : body[found!.items!];
        expect(rows.length).toBeLessThanOrEqual(1);
        seen.push(...rows.map((r) => JSON.stringify(r.id ?? r.cursor)));
        let cursor: string | null;
        if (found!.arrayBody) {
          const link = res.headers.link as string | undefined;
          cursor = link ? new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1], 'http://x').searchParams.get('cursor') : null;
          if (link) expect(link).toMatch(/^<\/api\/v1\/[^>]*cursor=[^>]+>; rel="next"$/);
        } else {
          expect(typeof body.hasMore).toBe('boolean');
          cursor = body.hasMore ? body.nextCursor : null;
          if (body.hasMore) expect(typeof body.nextCursor).toBe('string');
          else if (operationId !== 'reputation.listScoreChanges') expect(body.nextCursor).toBeNull(); // the feed keeps a poll position
        }
        firstCursor ??= cursor;
        next = cursor ? withQuery(call.url, `limit=1&cursor=${encodeURIComponent(cursor)}`) : null;
      }
      expect(seen.length).toBe(3);
      expect(new Set(seen).size).toBe(3);
      expect(firstCursor).toBeTruthy();
      for (const bad of [tamper(firstCursor!), foreign, 'garbage', `${firstCursor}.x`]) {
        const res = await app.inject({
          method: 'GET',
          url: withQuery(call.url, `limit=1&cursor=${encodeURIComponent(bad)}`),
          headers: call.headers,
        });
        expect(res.statusCode, `${bad}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'cursor' }] });
      }
    });
  }
});

describe('cursors', () => {
  it('round-trip, and refuse another listing, an edited value or a bad checksum', () => {
    const c = encodeCursor('webhooks', ['2026-01-02T03:04:05.123456Z', '3f2b8a4c-1d2e-4f5a-9b8c-7d6e5f4a3b2c']);
    const patterns = [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, /^[0-9a-f-]{36}$/];
    expect(decodeCursor('webhooks', c, patterns)).toEqual(['2026-01-02T03:04:05.123456Z', '3f2b8a4c-1d2e-4f5a-9b8c-7d6e5f4a3b2c']);
    expect(() => decodeCursor('disputes.wallet', c, patterns)).toThrow(/cursor/);
    const [payload, sum] = c.split('.');
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('2026', '2020')).toString('base64url');
    expect(() => decodeCursor('webhooks', `${edited}.${sum}`, patterns)).toThrow(/cursor/);
    // a well-formed cursor with a value outside its pattern (e.g. SQL) is refused too
    expect(() => decodeCursor('webhooks', encodeCursor('webhooks', ["'; drop table x --", 'x']), patterns)).toThrow(/cursor/);
  });
});
