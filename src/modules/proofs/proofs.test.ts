// The proofs API: prove and verify through HTTP, offline verification with snarkjs and the published key,
// every tampering case, superseded commitments, age and KYC proofs, limits and auth, and a burst of proofs.
import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import { createKey, createTestApp, eventually, randomAddress, redisUrl, type TestKey } from '../../../test/helpers/app.js';
import { secondConnection, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import { deploymentSettings } from '../../../test/helpers/deployment.js';
import type { App } from '../../platform/http/types.js';
import { toChecksum } from '../../platform/http/address.js';
import { categoryHash, decodeProof, encodeProof, yyyymmdd } from './encoding.js';
import { createProofsRepo } from './repo.js';
import { kycRecordsFor, setScore } from './test-support.js';

let app: App;
let key: TestKey;
let kyc: ReturnType<typeof kycRecordsFor>;

beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Growth');
  kyc = kycRecordsFor(app);
  app.ctx.services.kyc = kyc;
});

afterAll(async () => {
  await app?.close();
  // plain snarkjs.groth16.verify below starts snarkjs' shared worker threads: stop them so the run exits
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

const prove = (payload: Record<string, unknown>, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: '/api/v1/reputation/prove', headers, payload });
const verify = (payload: Record<string, unknown>, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: '/api/v1/reputation/verify', headers, payload });

/** Flips one hex digit inside the proof's `a` point. */
const tamper = (proof: string, at = 2 + 64 + 10) => proof.slice(0, at) + (proof[at] === '0' ? '1' : '0') + proof.slice(at + 1);

describe('ScoreAboveThreshold', () => {
  const subject = randomAddress();
  let proof: string;
  let publicInputs: Record<string, unknown>;

  beforeAll(async () => {
    await setScore(app, subject, 'DEFI_LENDING', 720);
    const res = await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 700 });
    expect(res.statusCode, res.body).toBe(200);
    ({ proof, publicInputs } = res.json());
  });

  it('returns one ABI-encoded hex proof and its public inputs', () => {
    expect(proof).toMatch(/^0x[0-9a-f]{896}$/);
    expect(publicInputs).toMatchObject({
      threshold: 700,
      category: 'DEFI_LENDING',
      categoryId: 1,
      categoryHash: categoryHash('DEFI_LENDING'),
      subject: toChecksum(subject),
    });
    expect(publicInputs.commitment).toMatch(/^\d+$/);
    expect(Math.abs((publicInputs.timestamp as number) - Date.now() / 1000)).toBeLessThan(60);
    // the default lifetime: one hour from the issue time
    expect(publicInputs.validUntil).toBe((publicInputs.timestamp as number) + 3600);
    const d = decodeProof(proof)!;
    expect(d.proofType).toBe('ScoreAboveThreshold');
    expect(d.publicSignals.map(String)).toEqual([
      '700',
      '1',
      BigInt(subject).toString(),
      publicInputs.commitment,
      String(publicInputs.validUntil),
    ]);
  });

  it('verifies in the API, with and without matching publicInputs', async () => {
    const about = { valid: true, subject: toChecksum(subject), validUntil: publicInputs.validUntil, environment: 'live' };
    expect((await verify({ proof })).json()).toEqual(about);
    expect((await verify({ proof, publicInputs })).json()).toEqual(about);
    expect((await verify({ proof, publicInputs: { categoryId: 1, validUntil: publicInputs.validUntil } })).json()).toEqual(about);
    expect(
      (
        await verify({
          proof,
          publicInputs: { threshold: 700, categoryHash: categoryHash('DEFI_LENDING').toUpperCase().replace('0X', '0x') },
        })
      ).json().valid,
    ).toBe(true);
  });

  it('verifies offline with snarkjs and the published verification key', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/proofs/verification-keys' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const entry = doc.circuits.find((c: { circuit: string }) => c.circuit === 'score_threshold');
    expect(entry.publicSignals).toEqual(['threshold', 'categoryId', 'subject', 'commitment', 'validUntil']);
    expect(doc.ptauPower).toBe(10);
    expect(doc.setup).toMatchObject({ kind: 'dev', phase2Contributors: 1, beacon: true });
    const d = decodeProof(proof)!;
    expect(await snarkjs.groth16.verify(entry.verificationKey, d.publicSignals.map(String), d.proof)).toBe(true);
    const bad = decodeProof(tamper(proof));
    if (bad) expect(await snarkjs.groth16.verify(entry.verificationKey, bad.publicSignals.map(String), bad.proof)).toBe(false);
    const wrongThreshold = [...d.publicSignals.map(String)];
    wrongThreshold[0] = '600';
    expect(await snarkjs.groth16.verify(entry.verificationKey, wrongThreshold, d.proof)).toBe(false);
    // the expiry is bound by the proof: an offline verifier cannot be fooled into a later validUntil
    const later = [...d.publicSignals.map(String)];
    later[4] = String(Number(later[4]) + 86_400);
    expect(await snarkjs.groth16.verify(entry.verificationKey, later, d.proof)).toBe(false);
  });

  it('is invalid when tampered, malformed or re-labelled', async () => {
    expect((await verify({ proof: tamper(proof) })).json().valid).toBe(false);
    expect((await verify({ proof: tamper(proof, proof.length - 70) })).json().valid).toBe(false); // a public signal
    expect((await verify({ proof: 'not a proof' })).json().valid).toBe(false);
    expect((await verify({ proof: '0x' })).json().valid).toBe(false);
    expect((await verify({ proof: proof.slice(0, -2) })).json().valid).toBe(false);
    expect((await verify({ proof: proof + '00' })).json().valid).toBe(false);
    expect((await verify({ proof: proof.replace(/^0x/, '0X') })).json().valid).toBe(false);
    // the same Groth16 proof presented as an age proof
    const d = decodeProof(proof)!;
    expect((await verify({ proof: encodeProof('AgeVerification', d.proof, d.publicSignals.map(String)) })).json().valid).toBe(false);
  });

  it('is invalid when publicInputs disagree with the proof', async () => {
    for (const pi of [
      { threshold: 699 },
      { category: 'OVERALL' },
      { categoryId: 0 },
      { validUntil: (publicInputs.validUntil as number) + 1 },
      { categoryHash: categoryHash('OVERALL') },
      { subject: randomAddress() },
      { commitment: '12345' },
      { timestamp: (publicInputs.timestamp as number) + 1 },
      { minimumAge: 21 },
    ]) {
      const res = await verify({ proof, publicInputs: pi });
      expect(res.statusCode).toBe(200);
      expect(res.json().valid, JSON.stringify(pi)).toBe(false);
    }
  });

  it('reuses the commitment while the score holds, and supersedes it when the score changes', async () => {
    const again = (await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 500 })).json();
    expect(again.publicInputs.commitment).toBe(publicInputs.commitment);
    expect(again.proof).not.toBe(proof);
    await setScore(app, subject, 'DEFI_LENDING', 730);
    // the score.updated event alone supersedes the commitment (before any verification looks at it)
    await eventually(async () => {
      const rows = await app.ctx.db.query<{ is_current: boolean }>('SELECT is_current FROM proof_commitments WHERE commitment = $1', [
        publicInputs.commitment,
      ]);
      return rows.length === 1 && rows[0].is_current === false;
    });
    expect((await verify({ proof })).json()).toMatchObject({ valid: false, reason: 'superseded commitment' });
    const fresh = (await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 700 })).json();
    expect(fresh.publicInputs.commitment).not.toBe(publicInputs.commitment);
    expect((await verify({ proof: fresh.proof })).json().valid).toBe(true);
  });

  it('gives a score that returns to an earlier value a fresh commitment', async () => {
    const wallet = randomAddress();
    const proveAt = async () =>
      (await prove({ subject: wallet, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: 600 })).json();
    await setScore(app, wallet, 'SOCIAL', 650);
    const first = await proveAt();
    await setScore(app, wallet, 'SOCIAL', 660);
    await setScore(app, wallet, 'SOCIAL', 650);
    const second = await proveAt();
    expect(second.publicInputs.commitment).not.toBe(first.publicInputs.commitment);
    expect((await verify({ proof: second.proof })).json()).toMatchObject({ valid: true });
    expect((await verify({ proof: first.proof })).json()).toMatchObject({ valid: false });
  });

  it('forgets issued proofs of superseded commitments, and keeps the ones that can still verify', async () => {
    const wallet = randomAddress();
    const proveAt = async () =>
      (await prove({ subject: wallet, proofType: 'ScoreAboveThreshold', category: 'NFT', threshold: 100 })).json();
    const issued = async (p: string) =>
      (await app.ctx.db.query('SELECT 1 FROM proof_issuances WHERE proof_hash = $1', [createHash('sha256').update(p).digest('hex')]))
        .length;
    await setScore(app, wallet, 'NFT', 500);
    const old = await proveAt();
    await setScore(app, wallet, 'NFT', 510);
    const fresh = await proveAt();
    const repo = createProofsRepo(app.ctx.db);
    await eventually(async () => (await verify({ proof: old.proof })).json().valid === false);
    expect(await repo.pruneIssuances(3600)).toBe(0); // superseded just now: within the grace period
    await new Promise((r) => setTimeout(r, 1100));
    expect(await repo.pruneIssuances(1)).toBeGreaterThanOrEqual(1);
    expect(await issued(old.proof)).toBe(0);
    expect(await issued(fresh.proof)).toBe(1);
    expect((await verify({ proof: fresh.proof, publicInputs: { timestamp: fresh.publicInputs.timestamp } })).json()).toMatchObject({
      valid: true,
    });
  });

  it('refuses a false statement with 422 and no proof', async () => {
    const res = await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 731 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'proof_unsatisfiable' });
    expect(res.json().proof).toBeUndefined();
  });

  it('proves at the boundaries 0 and score', async () => {
    expect((await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 730 })).statusCode).toBe(200);
    expect((await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 0 })).statusCode).toBe(200);
  });
});

describe('whose proof it is (a proof works for whoever presents it)', () => {
  it("tells the verifier the proof's subject, so an attacker's copy of a victim's proof is recognisable", async () => {
    const victim = randomAddress();
    const attacker = randomAddress();
    await setScore(app, victim, 'DEFI_LENDING', 883);
    // any API key can obtain any wallet's proof: the attacker asks for the victim's
    const stolen = (await prove({ subject: victim, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 800 })).json();
    const res = (await verify({ proof: stolen.proof })).json();
    expect(res.valid).toBe(true);
    expect(res.subject).toBe(toChecksum(victim));
    expect(res.subject).not.toBe(toChecksum(attacker));
    // a dApp that states whom it expects gets valid: false for the attacker
    expect((await verify({ proof: stolen.proof, publicInputs: { subject: attacker } })).json()).toMatchObject({
      valid: false,
      reason: 'publicInputs.subject disagrees with the proof',
    });
  });
});

describe('expiry (validUntil)', () => {
  it('a proof whose validUntil was rewritten into the past is invalid (the Groth16 check), not "expired"', async () => {
    const wallet = randomAddress();
    await setScore(app, wallet, 'GOVERNANCE', 640);
    const res = await prove({ subject: wallet, proofType: 'ScoreAboveThreshold', category: 'GOVERNANCE', threshold: 600 });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().proof as string;
    // the last of the 14 words is publicSignals[4], validUntil: one second after the epoch
    const tampered = `${p.slice(0, 2 + 13 * 64)}${'1'.padStart(64, '0')}`;
    expect((await verify({ proof: tampered })).json()).toEqual({ valid: false, reason: 'invalid Groth16 proof', environment: 'live' });
  });

  it('refuses a proof once its validUntil has passed', async () => {
    const short = await createTestApp({ config: { proofLifetimeSeconds: 1 } });
    try {
      const k = await createKey(short, 'Growth');
      const wallet = randomAddress();
      await setScore(short, wallet, 'GOVERNANCE', 640);
      const res = await short.inject({
        method: 'POST',
        url: '/api/v1/reputation/prove',
        headers: k.headers,
        payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'GOVERNANCE', threshold: 600 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { proof: p, publicInputs: pi } = res.json();
      expect(pi.validUntil).toBe(pi.timestamp + 1);
      const check = async () =>
        (await short.inject({ method: 'POST', url: '/api/v1/reputation/verify', headers: k.headers, payload: { proof: p } })).json();
      await eventually(async () => (await check()).valid === false, { timeoutMs: 30_000 });
      expect(await check()).toEqual({ valid: false, reason: 'expired (validUntil has passed)', environment: 'live' });
    } finally {
      await short.close();
    }
  });
});

describe('unknown commitments', () => {
  it('is invalid for a correct proof against a commitment Credence never made', async () => {
    // a genuine Groth16 proof for a made-up commitment: valid for snarkjs, unknown to Credence
    const { poseidon4 } = await import('poseidon-lite');
    const subject = randomAddress();
    const commitment = poseidon4([BigInt(subject), 1n, 900n, 42n]).toString();
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(
      {
        threshold: 100,
        categoryId: 1,
        subject: BigInt(subject).toString(),
        commitment,
        validUntil: Math.floor(Date.now() / 1000) + 600,
        score: 900,
        salt: 42,
      },
      'circuits/build/score_threshold/score_threshold.wasm',
      'circuits/build/score_threshold/score_threshold_final.zkey',
    );
    const hex = encodeProof('ScoreAboveThreshold', proof, publicSignals);
    expect((await verify({ proof: hex })).json()).toMatchObject({ valid: false });
  });
});

describe('age and KYC proofs', () => {
  const adult = randomAddress();
  const minor = randomAddress();
  const now = new Date();
  const yearsAgo = (n: number, dayOffset = 0) => {
    const d = new Date(Date.UTC(now.getUTCFullYear() - n, now.getUTCMonth(), now.getUTCDate() + dayOffset));
    return yyyymmdd(d);
  };

  beforeAll(async () => {
    await kyc.approve(adult, yearsAgo(30));
    await kyc.approve(minor, yearsAgo(21, 1)); // turns 21 tomorrow
  });

  it('proves AgeVerification (and the AgeAboveMinimum alias) from the approved KYC birth date', async () => {
    const res = await prove({ subject: adult, proofType: 'AgeVerification', minimumAge: 25 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.proofType).toBe('AgeVerification');
    expect(body.publicInputs).toMatchObject({ minimumAge: 25, currentDate: yyyymmdd(new Date()), subject: toChecksum(adult) });
    expect(body.publicInputs.validUntil).toBeGreaterThan(Date.now() / 1000);
    expect(body.publicInputs.categoryId).toBeUndefined();
    expect((await verify({ proof: body.proof, publicInputs: { minimumAge: 25 } })).json().valid).toBe(true);
    expect((await verify({ proof: body.proof, publicInputs: { minimumAge: 26 } })).json().valid).toBe(false);
    expect((await verify({ proof: tamper(body.proof) })).json().valid).toBe(false);
    const alias = await prove({ subject: adult, proofType: 'AgeAboveMinimum' });
    expect(alias.statusCode).toBe(200);
    expect(alias.json()).toMatchObject({ proofType: 'AgeAboveMinimum', publicInputs: { minimumAge: 21 } });
  });

  it('refuses an age below the minimum with 422, to the day', async () => {
    const res = await prove({ subject: minor, proofType: 'AgeVerification', minimumAge: 21 });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('proof_unsatisfiable');
    expect((await prove({ subject: minor, proofType: 'AgeVerification', minimumAge: 20 })).statusCode).toBe(200);
  });

  it('gives 422 when the wallet has no approved KYC', async () => {
    for (const proofType of ['AgeVerification', 'KYCVerified']) {
      const res = await prove({ subject: randomAddress(), proofType });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toMatch(/approved KYC/);
    }
  });

  it('proves KYCVerified', async () => {
    const res = await prove({ subject: adult, proofType: 'KYCVerified' });
    expect(res.statusCode).toBe(200);
    expect(res.json().publicInputs.minimumAge).toBe(0);
    expect((await verify({ proof: res.json().proof })).json().valid).toBe(true);
  });

  it('invalidates age proofs when the KYC birth date is committed again', async () => {
    const who = randomAddress();
    await kyc.approve(who, yearsAgo(40));
    const { proof } = (await prove({ subject: who, proofType: 'AgeVerification', minimumAge: 18 })).json();
    expect((await verify({ proof })).json().valid).toBe(true);
    await kyc.approve(who, yearsAgo(40));
    expect((await verify({ proof })).json().valid).toBe(false);
  });

  it('serves ProofsService.proveAge for the compliance routes', async () => {
    const who = randomAddress();
    const c = await app.ctx.services.proofs!.commitBirthDate(who, 19900101);
    const r = await app.ctx.services.proofs!.proveAge({ address: who, birthDate: 19900101, salt: c.salt, minimumAge: 18, now: new Date() });
    expect(r.publicInputs.commitment).toBe(c.commitment);
    await expect(
      app.ctx.services.proofs!.proveAge({ address: who, birthDate: 19900101, salt: c.salt, minimumAge: 99 }),
    ).rejects.toMatchObject({ code: 'proof_unsatisfiable', statusCode: 422 });
    await expect(app.ctx.services.proofs!.commitBirthDate(who, 19900231)).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('validation and auth', () => {
  const subject = randomAddress();

  it('needs an API key for prove and verify; the keys are public', async () => {
    expect((await prove({ subject, proofType: 'KYCVerified' }, {})).statusCode).toBe(401);
    expect((await prove({ subject, proofType: 'KYCVerified' }, { 'x-api-key': 'cred_live_nope' })).statusCode).toBe(401);
    expect((await verify({ proof: '0x00' }, {})).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/v1/proofs/verification-keys' })).statusCode).toBe(200);
  });

  it('refuses bad prove bodies with 400 and every offending field', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ proofType: 'ScoreAboveThreshold', category: 'NFT', threshold: 1 }, ['subject']],
      [{ subject, category: 'NFT', threshold: 1 }, ['proofType']],
      [{ subject, proofType: 'Nope' }, ['proofType']],
      [{ subject: '0x123', proofType: 'ScoreAboveThreshold', category: 'nft', threshold: 1001 }, ['subject', 'category', 'threshold']],
      [{ subject, proofType: 'ScoreAboveThreshold', category: 'NFT', threshold: -1 }, ['threshold']],
      [{ subject, proofType: 'AgeVerification', minimumAge: 0 }, ['minimumAge']],
      [{ subject, proofType: 'AgeVerification', minimumAge: 151 }, ['minimumAge']],
      [{ subject, proofType: 'ScoreAboveThreshold' }, ['category', 'threshold']],
      [{ subject, proofType: 'ScoreAboveThreshold', category: 'NFT' }, ['threshold']],
    ];
    for (const [payload, fields] of cases) {
      const res = await prove(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      const got = res.json().fields.map((f: { field: string }) => f.field.replace(/^\//, ''));
      for (const f of fields) expect(got.join(','), JSON.stringify(payload)).toContain(f);
    }
  });

  it('accepts a 10,000-character proof string and refuses a missing or longer one', async () => {
    const ok = await verify({ proof: '0x' + 'a'.repeat(9998) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().valid).toBe(false);
    expect((await verify({ proof: '0x' + 'a'.repeat(9999) })).statusCode).toBe(400);
    expect((await verify({})).statusCode).toBe(400);
  });

  it('counts 1 query per proof and 0 per verification', async () => {
    const k = await createKey(app, 'Starter');
    const usage = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: k.headers })).json().queriesThisMonth;
    const before = await usage();
    await verify({ proof: '0x00' }, k.headers);
    expect(await usage()).toBe(before);
    await setScore(app, subject, 'NFT', 300);
    expect((await prove({ subject, proofType: 'ScoreAboveThreshold', category: 'NFT', threshold: 100 }, k.headers)).statusCode).toBe(200);
    expect(await usage()).toBe(before + 1);
  });
});

describe.skipIf(!redisUrl() || !usingPostgres())('two instances on one Redis and one database', () => {
  it("a score change on one instance ends the other's use of the old commitment", async () => {
    // two instances of one deployment: the must-match settings shared (README, "Several instances")
    const { config } = deploymentSettings();
    const db = await testDatabase();
    const a = await createTestApp({ db, config });
    const b = await createTestApp({ db: await secondConnection(db), config });
    try {
      const k = await createKey(a, 'Enterprise');
      const wallet = randomAddress();
      const proveOn = async (x: App) =>
        (
          await x.inject({
            method: 'POST',
            url: '/api/v1/reputation/prove',
            headers: k.headers,
            payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: 600 },
          })
        ).json();
      const verifyOn = async (x: App, p: string) =>
        (await x.inject({ method: 'POST', url: '/api/v1/reputation/verify', headers: k.headers, payload: { proof: p } })).json();
      await setScore(a, wallet, 'SOCIAL', 650);
      const first = await proveOn(a); // a remembers this commitment
      // b moves the score away and back: the commitment a remembers is superseded
      await setScore(b, wallet, 'SOCIAL', 670);
      await setScore(b, wallet, 'SOCIAL', 650);
      await eventually(async () => (await a.ctx.services.scoring!.getScore(wallet, 'SOCIAL', { explain: false })).score === 650, {
        timeoutMs: 5000,
      });
      await eventually(async () => (await verifyOn(a, first.proof)).valid === false, { timeoutMs: 5000 });
      const second = await proveOn(a);
      expect(second.publicInputs.commitment).not.toBe(first.publicInputs.commitment);
      expect(await verifyOn(b, second.proof)).toMatchObject({ valid: true, subject: toChecksum(wallet) });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a burst of proofs', () => {
  // a burst sized to the machine (8 per core: 16 on the 2-core machines CI runs on, 50 at most): the test checks that
  // every request is answered right while /health stays responsive, not how fast (bench/proofs-burst.ts has the figures)
  const n = Math.min(50, availableParallelism() * 8);
  it(`answers ${n} concurrent prove requests while /health stays responsive`, async () => {
    const subject = randomAddress();
    await setScore(app, subject, 'SOCIAL', 640);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const started = Date.now();
    const threshold = (i: number) => Math.round((i * 1000) / n);
    const burst = Array.from({ length: n }, (_, i) =>
      prove({ subject, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: threshold(i) }),
    );
    const healthTimes: number[] = [];
    let done = false;
    const all = Promise.all(burst).finally(() => (done = true));
    while (!done) {
      const t = performance.now();
      const h = await app.inject({ method: 'GET', url: '/health' });
      healthTimes.push(performance.now() - t);
      expect(h.statusCode).toBeLessThan(500);
      await new Promise((r) => setTimeout(r, 20));
    }
    const results = await all;
    loop.disable();
    const elapsed = (Date.now() - started) / 1000;
    expect(results.map((r) => r.statusCode)).toEqual(Array.from({ length: n }, (_, i) => (threshold(i) <= 640 ? 200 : 422)));
    const sorted = [...healthTimes].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    console.log(
      `[proofs burst] ${n} prove requests in ${elapsed.toFixed(2)} s; /health during the burst: n=${sorted.length} p50=${p(0.5)} ms p95=${p(0.95)} ms max=${p(1)} ms; event-loop delay p99=${(loop.percentile(99) / 1e6).toFixed(1)} ms max=${(loop.max / 1e6).toFixed(1)} ms; rss=${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
    expect(healthTimes.length).toBeGreaterThan(3);
  }, 180_000);
});

describe('OpenAPI', () => {
  it('documents the proofs routes', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    expect(doc.paths['/api/v1/reputation/prove'].post.operationId).toBe('proofs.createProof');
    expect(Object.keys(doc.paths['/api/v1/reputation/prove'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '422', '429']),
    );
    expect(doc.paths['/api/v1/reputation/verify'].post.operationId).toBe('proofs.verifyProof');
    expect(doc.paths['/api/v1/proofs/verification-keys'].get.operationId).toBe('proofs.listVerificationKeys');
  });
});
