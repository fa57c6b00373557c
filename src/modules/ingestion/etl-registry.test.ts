// The registry through the bulk import: an ethereum-etl export (real-shaped rows, built here) holding Aave V3
// Supply/Borrow/Repay events emitted by the mainnet Pool raises the wallet's DEFI_LENDING when imported with
// `credence ingest --format ethereum-etl --chain 1`; the very same events from any other address raise nothing and
// are reported as left out. Values, not rows: a $1 loop is dust, a $1M loan is not.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, keccak256, parseAbiItem, toHex, type AbiEvent } from 'viem';
import { randomAddress, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { Db } from '../../platform/db/types.js';
import { runIngestCommand } from '../../cli/ingest.js';
import { model } from '../scoring/params.js';

const { ceilingFor } = model;
const BACKING = model.params.backing;

const AAVE_V3_POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const SIG = {
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  borrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  repay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
};

function encode(signature: string, args: Record<string, unknown>) {
  const abi = parseAbiItem(signature) as AbiEvent;
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: args as never }) as string[];
  const plain = abi.inputs.filter((i) => !i.indexed);
  return {
    topics,
    data: encodeAbiParameters(
      plain,
      plain.map((i) => args[i.name!]),
    ),
  };
}

/**
 * An export in ethereum-etl's JSON-lines layout: blocks, transactions and logs of `loops` supply/borrow/repay
 * cycles of `usdc` USDC each by `wallet`, emitted by `emitter`, a week apart from 2024-01-01.
 */
/** each transaction of the export: 150k gas at 20 gwei (ETH at the reference price of data/scoring/backing.json) */
const GAS_USED = 150_000;
const GAS_USD_PER_TX = GAS_USED * 20e-9 * BACKING.nativeUsd['1'];

function writeExport(wallet: string, emitter: string, usdc: bigint, loops: number, reserve = USDC): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-aave-'));
  const blocks: string[] = [];
  const txs: string[] = [];
  const logs: string[] = [];
  let block = 19_000_000;
  let nonce = 0;
  const t0 = Date.UTC(2024, 0, 1) / 1000;
  for (let i = 0; i < loops; i++) {
    for (const [k, kind] of (['supply', 'borrow', 'repay'] as const).entries()) {
      block += 1;
      const ts = t0 + i * 7 * 86_400 + k * 86_400;
      const hash = keccak256(toHex(`${wallet}:${emitter}:${block}`));
      const amount = kind === 'supply' ? usdc * 2n : usdc;
      const args =
        kind === 'supply'
          ? { reserve, user: wallet, onBehalfOf: wallet, amount, referralCode: 0 }
          : kind === 'borrow'
            ? { reserve, user: wallet, onBehalfOf: wallet, amount, interestRateMode: 2, borrowRate: 10n ** 25n, referralCode: 0 }
            : { reserve, user: wallet, repayer: wallet, amount, useATokens: false };
      const { topics, data } = encode(SIG[kind], args);
      blocks.push(JSON.stringify({ type: 'block', number: block, hash: keccak256(toHex(block)), timestamp: ts, transaction_count: 1 }));
      txs.push(
        JSON.stringify({
          type: 'transaction',
          hash,
          nonce: nonce++,
          transaction_index: 0,
          from_address: wallet,
          to_address: emitter,
          value: 0,
          gas: 300000,
          gas_price: 20e9,
          input: '0x',
          block_timestamp: ts,
          block_number: block,
          block_hash: keccak256(toHex(block)),
          receipt_status: 1,
          receipt_contract_address: null,
          receipt_gas_used: GAS_USED,
          receipt_effective_gas_price: 20e9,
        }),
      );
      logs.push(
        JSON.stringify({
          type: 'log',
          log_index: 0,
          transaction_hash: hash,
          transaction_index: 0,
          address: emitter,
          data,
          topics,
          block_number: block,
          block_timestamp: ts,
          block_hash: keccak256(toHex(block)),
        }),
      );
    }
  }
  writeFileSync(path.join(dir, 'blocks.json'), blocks.join('\n') + '\n');
  writeFileSync(path.join(dir, 'transactions.json'), txs.join('\n') + '\n');
  writeFileSync(path.join(dir, 'logs.json'), logs.join('\n') + '\n');
  return dir;
}

describe('ethereum-etl import through the evidence registry', () => {
  // one database per command run: each run is a fresh instance with its own generated secrets
  const dbs: Db[] = [];
  let db: Db;
  const out: string[] = [];
  const honest = randomAddress();
  const forged = randomAddress();
  const looper = randomAddress();
  const whale = randomAddress();

  const ingest = async (dir: string) => {
    db = await testDatabase();
    dbs.push(db);
    out.length = 0;
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    try {
      // the command closes the database it was given: hand it one whose close is a no-op
      expect(
        await runIngestCommand(['--format', 'ethereum-etl', '--chain', '1', dir], testConfig(), {
          db: { ...db, close: async () => undefined },
        }),
      ).toBe(0);
    } finally {
      log.mockRestore();
    }
    return out.join('\n');
  };
  // the scores the command stored when it rescored the imported wallets (a wallet never scored has none: 0)
  const lending = async (w: string) => {
    const rows = await db.query<{ score: number; conduct: number; backing_usd: number; factors: { code: string }[] | string }>(
      "SELECT score, conduct, backing_usd, factors FROM scores WHERE address = $1 AND category = 'DEFI_LENDING'",
      [w],
    );
    if (!rows.length) return { score: 0, conduct: 0, backing: 0, factors: [{ code: 'NO_LENDING_HISTORY' }], stored: false };
    const f = rows[0].factors;
    return {
      score: rows[0].score,
      conduct: rows[0].conduct,
      backing: Number(rows[0].backing_usd),
      factors: (typeof f === 'string' ? JSON.parse(f) : f) as { code: string }[],
      stored: true,
    };
  };

  afterAll(async () => {
    for (const d of dbs) await d.close();
  });

  it('Aave V3 events from the mainnet Pool raise DEFI_LENDING', async () => {
    const text = await ingest(writeExport(honest, AAVE_V3_POOL, 25_000n * 10n ** 6n, 6));
    expect(text).toMatch(/new activity records for/);
    expect(text).not.toMatch(/not evidence/);
    const s = await lending(honest);
    // six one-day loans of $25k over six weeks, each repaid: a short credit record (conduct); repaid
    // without interest, it is backed by its gas alone (18 transactions), and held to what that supports
    expect(s.conduct).toBeGreaterThan(250);
    expect(s.backing).toBeCloseTo(18 * GAS_USD_PER_TX, 1);
    expect(s.score).toBe(Math.min(s.conduct, ceilingFor(18 * GAS_USD_PER_TX)));
    expect(s.score).toBeGreaterThan(0);
    expect(s.factors.map((f) => f.code)).toEqual(expect.arrayContaining(['REPAYMENT_RECORD', 'COST_CEILING']));
  }, 180_000);

  it('the very same events from any other address raise nothing and are reported as left out', async () => {
    const text = await ingest(writeExport(forged, randomAddress(), 25_000n * 10n ** 6n, 6));
    expect(text).toMatch(/not evidence \(left out, never scored\): 18 logs from contracts outside the registry/);
    // nothing of it is evidence: the wallet's only rows are the fees of the transactions it sent
    const kinds = await db.query<{ kind: string }>('SELECT DISTINCT kind FROM wallet_activity WHERE wallet = $1', [forged]);
    expect(kinds.map((k) => k.kind)).toEqual(['tx_fee']);
    // the wallet was rescored (its nonces were imported) to nothing
    const s = await lending(forged);
    expect(s.score).toBe(0);
    expect(s.factors[0].code).toBe('NO_LENDING_HISTORY');
  }, 180_000);

  it("a $1 borrow/repay loop scores far below a $1M loan; one day of a $1M loan earns at most the day's cap", async () => {
    await ingest(writeExport(looper, AAVE_V3_POOL, 10n ** 6n, 40));
    const loop = await lending(looper);
    await ingest(writeExport(whale, AAVE_V3_POOL, 1_000_000n * 10n ** 6n, 1));
    const loan = await lending(whale);
    // no loop completes a cycle (each loan is $1): no credit record, whatever its 120 transactions of gas back
    expect(loop.conduct).toBeLessThan(50);
    expect(loop.score).toBeLessThan(50);
    // $2M supplied on day 0, $1M borrowed on day 1 and repaid on day 2 without interest: one repaid
    // loan (a little conduct), backed by its three transactions' gas only: the parked $2M backs nothing (3.0.0 counted
    // it at 3%/yr: 264; 2.0.0: 850)
    expect(loan.backing).toBeCloseTo(3 * GAS_USD_PER_TX, 1);
    expect(loan.score).toBe(Math.min(loan.conduct, ceilingFor(3 * GAS_USD_PER_TX)));
    expect(loan.score).toBeLessThan(50);
    expect(loan.factors.map((f) => f.code)).toContain('COST_CEILING');
  }, 180_000);

  it('an unpriced asset: a loop of crumbs (1 wei of WETH) is dust, and real but unpriced loops are bounded', async () => {
    const crumbs = randomAddress();
    await ingest(writeExport(crumbs, AAVE_V3_POOL, 1n, 40, WETH));
    expect((await lending(crumbs)).score).toBe(0);
    // 80 weekly loops of 1 WETH (no price source yet: the largest event of a market counts $100, a market at most
    // $1,000 at a time): a long record of repaid loans (conduct), but repaid without interest, it is backed by its
    // 240 transactions' gas alone and held to what that supports, whatever the WETH was worth
    const unpriced = randomAddress();
    await ingest(writeExport(unpriced, AAVE_V3_POOL, 10n ** 18n, 80, WETH));
    const bounded = await lending(unpriced);
    expect(bounded.conduct).toBeGreaterThan(500);
    expect(bounded.backing).toBeCloseTo(240 * GAS_USD_PER_TX, 1);
    expect(bounded.score).toBe(ceilingFor(240 * GAS_USD_PER_TX));
  }, 180_000);
});
