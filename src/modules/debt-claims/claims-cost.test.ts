// Claims that cost what they claim. Replayed through the HTTP API with every history built through
// the real paths: the debtors' and the honest creditors' Aave V3 histories come in as an ethereum-etl export of
// events at the pinned mainnet Pool (`credence ingest --format ethereum-etl`); the claims' evidence is sent on an
// in-process Hardhat chain run as Base (8453, CREDENCE_RPC_URL_8453), where USDC's mock sits at Base USDC's address;
// creditors and debtors sign in with SIWE. The chain starts 60 days back, so its transactions are weeks old.
import * as signalR from '@microsoft/signalr';
import { encodeFunctionData, parseUnits, toHex } from 'viem';
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, signIn, type TestKey } from '../../../test/helpers/app.js';
import { EtlExport } from '../../../test/helpers/etl-export.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { artifact, chainClient } from '../../../scripts/scenarios.js';
import type { App } from '../../platform/http/types.js';
import { importEthereumEtl } from '../ingestion/etl/import.js';
import { createIngestionRepo } from '../ingestion/repo.js';
import { claimSettled, fileClaim, post, type FiledClaim } from './test-helpers.js';
import { model } from '../scoring/params.js';

const CREDITOR_FULL_WEIGHT_SCORE = model.params.debtClaims.creditorFullWeightScore;
const PENDING_PER_CREDITOR = model.params.debtClaims.pendingPerCreditor;
const UNVERIFIED_CAP = model.params.debtClaims.unverifiedCap;

const BASE = 8453;
const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const AAVE_V3_POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const MAINNET_USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const AAVE = {
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  withdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  borrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  repay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
};
const DAY = 86_400_000;
const USDC = (n: number) => parseUnits(String(n), 6);

/** Hardhat's accounts come from this mnemonic, so a test can sign in as the node's funded accounts. */
const HARDHAT = Mnemonic.fromPhrase('test test test test test test test test test test test junk');
const account = (i: number) => HDNodeWallet.fromMnemonic(HARDHAT, `m/44'/60'/0'/0/${i}`);
const OPERATOR = 0;
const HONEST_CREDITORS = [1, 2, 3];
const ROW7_ATTACKERS = [10, 11, 12, 13];
const PAYING_SYBILS = [14, 15, 16, 17];

let chain: LocalChain;
let app: App;
let key: TestKey;
let receiver: Receiver;
let hub: signalR.HubConnection | undefined;
const debtors = {
  honest: Wallet.createRandom(),
  disputing: Wallet.createRandom(),
  victim: Wallet.createRandom(),
  victim2: Wallet.createRandom(),
  pair: Wallet.createRandom(),
};

/**
 * An honest year of borrowing on Aave V3 (mainnet, pinned Pool): each month supply $20k USDC, borrow $4k, repay
 * $4,040 three weeks later, withdraw, each transaction 150k gas at 20 gwei. Every transaction is the wallet's own. Under
 * the model, what backs it is what it lost: $480 of interest less the ~$99 its borrowed cash would have earned parked,
 * and 48 transactions of gas (~$216 at the reference $1,500 ETH), ~$597, which supports 510 points: above
 * CREDITOR_FULL_WEIGHT_SCORE, so an honest creditor weighs in full. (Without its gas it would be a 0.9 creditor.)
 */
function honestYear(x: EtlExport, wallet: string) {
  const start = Date.now() - 400 * DAY;
  for (let m = 0; m < 12; m++) {
    const t = start + m * 30 * DAY;
    const ev = (event: string, args: Record<string, unknown>, at: number) =>
      x.tx({ from: wallet, to: AAVE_V3_POOL, at: new Date(at), logs: [{ address: AAVE_V3_POOL, event, args }] });
    ev(AAVE.supply, { reserve: MAINNET_USDC, user: wallet, onBehalfOf: wallet, amount: USDC(20_000), referralCode: 0 }, t);
    ev(
      AAVE.borrow,
      {
        reserve: MAINNET_USDC,
        user: wallet,
        onBehalfOf: wallet,
        amount: USDC(4_000),
        interestRateMode: 2,
        borrowRate: 10n ** 25n,
        referralCode: 0,
      },
      t + DAY,
    );
    ev(AAVE.repay, { reserve: MAINNET_USDC, user: wallet, repayer: wallet, amount: USDC(4_040), useATokens: false }, t + 22 * DAY);
    ev(AAVE.withdraw, { reserve: MAINNET_USDC, user: wallet, to: wallet, amount: USDC(20_000) }, t + 23 * DAY);
  }
}

const rpc = <T>(method: string, params: unknown[] = []) => chain.request(method, params) as Promise<T>;
const send = (from: string, to: string, data?: string, value = 0n) =>
  rpc<string>('eth_sendTransaction', [{ from, to, ...(data ? { data } : {}), value: toHex(value) }]);
const usdcTransfer = (from: string, to: string, amount: bigint, token = BASE_USDC) =>
  send(from, token, encodeFunctionData({ abi: artifact('MockERC20Six').abi, functionName: 'transfer', args: [to, amount] }));
const mint = (to: string, amount: bigint, token = BASE_USDC) =>
  send(
    account(OPERATOR).address,
    token,
    encodeFunctionData({ abi: artifact('MockERC20Six').abi, functionName: 'mint', args: [to, amount] }),
  );

beforeAll(async () => {
  chain = await startLocalChain({ chainId: BASE, accounts: 20, initialDate: new Date(Date.now() - 60 * DAY) });
  app = await createTestApp({
    config: { rpcUrls: { [BASE]: chain.url }, claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000, claimNoticeHours: 24 },
  });
  key = await createKey(app, 'Growth');
  receiver = await startReceiver();
  await app.listen({ port: 0, host: '127.0.0.1' }); // the hub, over a real socket

  // USDC's mock at Base USDC's address: the registry knows it as a stablecoin (valued at 1 USD, 6 decimals)
  const c = chainClient(chain.url);
  const deployed = await c.deploy(account(OPERATOR).address, 'MockERC20Six', ['USD Coin', 'USDC']);
  await c.pinAt(deployed, BASE_USDC);

  // the histories, through the bulk import (what `credence ingest --format ethereum-etl --chain 1` runs) at the pinned Aave V3 Pool
  const x = new EtlExport(19_000_000, { gasUsed: 150_000n, priceWei: 20_000_000_000n });
  for (const d of Object.values(debtors)) honestYear(x, d.address.toLowerCase());
  for (const i of HONEST_CREDITORS) honestYear(x, account(i).address.toLowerCase());
  const imported = await importEthereumEtl({ db: app.ctx.db, repo: createIngestionRepo(app.ctx.db) }, x.write('credence-etl-claims-'), {
    chainId: 1,
  });
  expect(imported.records).toBeGreaterThan(0);
  for (const w of [...Object.values(debtors).map((d) => d.address), ...HONEST_CREDITORS.map((i) => account(i).address)]) {
    await app.ctx.services.scoring!.recompute(w.toLowerCase(), 'ingestion');
  }
  // the honest creditors' own history is costly enough to weigh in full (the cost ceiling does not hold it below)
  for (const i of HONEST_CREDITORS) expect((await lending(account(i).address)).score).toBeGreaterThanOrEqual(CREDITOR_FULL_WEIGHT_SCORE);
}, 240_000);

afterAll(async () => {
  await hub?.stop();
  await app?.close();
  await chain?.stop();
  await receiver?.close();
});

async function lending(wallet: string): Promise<{ score: number; confidence: number; factors: { code: string }[] }> {
  const res = await app.inject({ url: `/api/v1/reputation/${wallet}/DEFI_LENDING?explain=true`, headers: key.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const getClaim = async (id: string) => (await app.inject({ url: `/api/v1/debt-claims/${id}` })).json() as FiledClaim;

/** A creditor's loan: its own earlier transaction (history), then the principal in USDC to the debtor. */
async function lend(creditor: number, debtor: string, usdc: number): Promise<string> {
  const from = account(creditor).address.toLowerCase();
  await mint(from, USDC(usdc));
  await send(from, from);
  return usdcTransfer(from, debtor.toLowerCase(), USDC(usdc));
}

async function claimAs(creditor: number, debtor: string, evidence: string): Promise<FiledClaim> {
  const me = await signIn(app, account(creditor));
  const { claim } = await fileClaim(
    app,
    { creditorAddress: me.address, debtorAddress: debtor, evidenceTransactionHash: evidence, chainId: BASE, currency: 'USDC' },
    me.auth,
  );
  return claim;
}

/**
 * The notice period passes: what CREDENCE_CLAIM_NOTICE_HOURS of waiting does, without the wait. A claim still due
 * is due at once, and the claims worker (not the test) runs it; then any later recompute sees the notice over.
 */
async function noticePasses(ids: string[]) {
  await app.ctx.db.query(
    `UPDATE debt_claims SET notice_ends_at = clock_timestamp() - interval '3 seconds',
       job_due_at = CASE WHEN job_due_at IS NOT NULL THEN clock_timestamp() - interval '3 seconds' END
     WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  await eventually(
    async () =>
      (
        await app.ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM debt_claims WHERE id = ANY($1::uuid[]) AND job_due_at IS NOT NULL',
          [ids],
        )
      )[0].n === 0,
    { timeoutMs: 60_000 },
  );
}

describe('row 7: four fresh creditors, a zero-value transaction each, signed-in claims', () => {
  it('the victim loses at most 40 (nothing during the notice) and its confidence does not rise', async () => {
    const victim = debtors.victim.address;
    const before = await lending(victim);
    expect(before.score).toBeGreaterThan(300);

    const claims: FiledClaim[] = [];
    for (const i of ROW7_ATTACKERS) {
      const from = account(i).address.toLowerCase();
      await send(from, from); // one transaction to itself: "history"
      const evidence = await send(from, victim.toLowerCase()); // one of 0 value to the victim
      claims.push(await claimAs(i, victim, evidence));
    }
    for (const c of claims) {
      expect((await getClaim(c.id)).verification).toMatchObject({
        creditorSignedIn: true,
        evidenceStatus: 'not_found',
        evidenceProblem: 'no_value_to_debtor',
        creditorHasHistory: true,
        verified: false,
        inNotice: true,
      });
    }
    const during = await lending(victim);
    expect(during.score).toBe(before.score);
    expect(during.factors.map((f) => f.code)).toContain('DEBT_CLAIM_IN_NOTICE');

    await noticePasses(claims.map((c) => c.id));
    const after = await lending(victim);
    expect(before.score - after.score).toBeLessThanOrEqual(40);
    expect(before.score - after.score).toBeLessThanOrEqual(UNVERIFIED_CAP);
    expect(after.confidence).toBeLessThanOrEqual(before.confidence);
  });

  it('past the table: four fresh creditors that really pay $150 each weeks before weigh a quarter each (at most 40 together)', async () => {
    const victim = debtors.victim2.address;
    const before = await lending(victim);
    const claims: FiledClaim[] = [];
    for (const i of PAYING_SYBILS) claims.push(await claimAs(i, victim, await lend(i, victim, 150)));
    for (const c of claims) {
      const v = (await getClaim(c.id)).verification;
      expect(v).toMatchObject({
        evidenceStatus: 'found',
        evidenceProblem: null,
        evidenceValueUsd: 150,
        verified: true,
        creditorWeight: 0.25,
        inNotice: true,
      });
    }
    expect((await lending(victim)).score).toBe(before.score);
    await noticePasses(claims.map((c) => c.id));
    const after = await lending(victim);
    expect(before.score - after.score).toBeLessThanOrEqual(40);
    expect(before.score - after.score).toBeGreaterThan(0);
    expect(after.confidence).toBeLessThanOrEqual(before.confidence);
  });
});

describe('an honest creditor with a real loan', () => {
  it('is told to the debtor (webhook), counts only after the notice period, in full, and raises no confidence', async () => {
    const debtor = debtors.honest.address;
    const sub = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: key.headers,
      payload: { url: receiver.url, walletAddress: debtor },
    });
    expect(sub.statusCode).toBe(201);
    // and a hub client (the official SignalR client) watching the debtor
    const port = (app.server.address() as { port: number }).port;
    hub = new signalR.HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}/hubs/scores`)
      .configureLogging(signalR.LogLevel.None)
      .build();
    const pushed: { claimId: string; noticeEndsAt: string }[] = [];
    hub.on('DebtClaimFiled', (p: { claimId: string; noticeEndsAt: string }) => pushed.push(p));
    await hub.start();
    await hub.invoke('SubscribeToAddress', debtor);
    const before = await lending(debtor);

    const claim = await claimAs(HONEST_CREDITORS[0], debtor, await lend(HONEST_CREDITORS[0], debtor, 2_500));
    const v = (await getClaim(claim.id)).verification;
    expect(v).toMatchObject({
      evidenceStatus: 'found',
      evidenceValueUsd: 2500,
      creditorHasHistory: true,
      verified: true,
      creditorWeight: 1,
      weight: 1,
      inNotice: true,
    });
    expect(Date.parse(v.noticeEndsAt!) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    // the debtor is told at once, with the time it has to dispute
    const told = await eventually(() =>
      receiver.received.map((r) => JSON.parse(r.body)).find((b) => b.event === 'debt_claim.filed' && b.data.claimId === claim.id),
    );
    expect(told.data).toMatchObject({
      debtorAddress: debtor,
      creditorAddress: account(HONEST_CREDITORS[0]).address,
      amount: '1500.25',
      currency: 'USDC',
      chainId: BASE,
    });
    expect(Date.parse(told.data.noticeEndsAt)).toBe(Date.parse(v.noticeEndsAt!));
    const live = await eventually(() => pushed.find((p) => p.claimId === claim.id));
    expect(Date.parse(live.noticeEndsAt)).toBe(Date.parse(v.noticeEndsAt!));
    // and the claim's job waits for the end of the notice
    const [job] = await app.ctx.db.query<{ due: boolean }>('SELECT job_due_at = notice_ends_at AS due FROM debt_claims WHERE id = $1', [
      claim.id,
    ]);
    expect(job.due).toBe(true);
    expect((await lending(debtor)).score).toBe(before.score);

    await noticePasses([claim.id]);
    const after = await lending(debtor);
    expect(before.score - after.score).toBe(PENDING_PER_CREDITOR);
    expect(after.factors.map((f) => f.code)).toContain('DEBT_CLAIM_PENDING');
    expect(after.confidence).toBeLessThanOrEqual(before.confidence);
  });

  it("the debtor's dispute during the notice period stops it from counting", async () => {
    const debtor = debtors.disputing;
    const before = await lending(debtor.address);
    const claim = await claimAs(HONEST_CREDITORS[1], debtor.address, await lend(HONEST_CREDITORS[1], debtor.address, 1_000));
    expect((await getClaim(claim.id)).verification).toMatchObject({ verified: true, creditorWeight: 1, inNotice: true });
    const me = await signIn(app, debtor);
    const res = await post(
      app,
      `/debt-claims/${claim.id}/dispute`,
      { debtorAddress: debtor.address, reason: 'I repaid this loan in full in March' },
      me.auth,
    );
    expect(res.statusCode).toBe(200);
    await noticePasses([claim.id]);
    await app.ctx.services.scoring!.recompute(debtor.address.toLowerCase(), 'test');
    const after = await lending(debtor.address);
    expect(after.score).toBe(before.score);
    expect(after.factors.map((f) => f.code)).toContain('DEBT_CLAIM_DISPUTED');
  });
});

describe('evidence that is not a loan', () => {
  it('a token nobody prices, a payment below the floor, and a transaction from the day of the claim do not verify', async () => {
    const debtor = debtors.pair.address;
    const creditor = HONEST_CREDITORS[2];
    const from = account(creditor).address.toLowerCase();
    // the attacker's own "USDC": any contract can emit Transfer logs
    const fake = await chainClient(chain.url).deploy(from, 'MockERC20Six', ['USD Coin', 'USDC']);
    await mint(from, USDC(1_000_000), fake);
    const unpriced = await claimAs(creditor, debtor, await usdcTransfer(from, debtor.toLowerCase(), USDC(1_000_000), fake));
    expect((await getClaim(unpriced.id)).verification).toMatchObject({
      evidenceStatus: 'not_found',
      evidenceProblem: 'unpriced',
      verified: false,
    });

    const dust = await claimAs(creditor, debtor, await lend(creditor, debtor, 20));
    expect((await getClaim(dust.id)).verification).toMatchObject({
      evidenceStatus: 'not_found',
      evidenceProblem: 'below_floor',
      evidenceValueUsd: 20,
      verified: false,
    });

    // the chain catches up with today: a loan made now cannot back a claim filed now
    await rpc('evm_setNextBlockTimestamp', [Math.floor(Date.now() / 1000)]);
    const today = await claimAs(creditor, debtor, await lend(creditor, debtor, 5_000));
    expect((await getClaim(today.id)).verification).toMatchObject({
      evidenceStatus: 'not_found',
      evidenceProblem: 'too_recent',
      evidenceValueUsd: 5000,
      verified: false,
    });
    for (const c of [unpriced, dust, today]) await claimSettled(app, c.id);
  });
});
