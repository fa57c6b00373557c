// Lending credit that costs nothing, replayed through `credence ingest --format ethereum-etl`
// with every event emitted by the real pinned mainnet contracts (Aave V3 Pool, Compound V3 cUSDCv3), next to honest
// histories. Stablecoin reserves only, so every event is valued at $1 a unit without any price source.
//
// Before these rules (measured on these very exports at commit 8ad8d9e): honest year 810, five cycles 807, flash
// loop 839, flash loop without withdrawal 821, pre-aged flash loop through Aave and Comet 929; a fresh wallet 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, keccak256, parseAbiItem, toHex, type AbiEvent } from 'viem';
import { randomAddress, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { Db } from '../../platform/db/types.js';
import { runIngestCommand } from '../../cli/ingest.js';
import { model } from '../scoring/params.js';

const { ceilingFor } = model;

const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2'; // Aave V3 Ethereum Pool
const COMET = '0xc3d688b66703497daa19211eedff47f25384cdc3'; // Compound V3 cUSDCv3 (base USDC)
const BALANCER_VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const DEC: Record<string, bigint> = { [USDC]: 10n ** 6n, [USDT]: 10n ** 6n, [DAI]: 10n ** 18n };
const SIG = {
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  borrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  repay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  withdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  cometSupply: 'event Supply(address indexed from, address indexed dst, uint256 amount)',
  cometWithdraw: 'event Withdraw(address indexed src, address indexed to, uint256 amount)',
  transfer: 'event Transfer(address indexed from, address indexed to, uint256 value)',
};
type Log = { address: string; sig: string; args: Record<string, unknown> };

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const at = (day: number) => new Date(T0 + day * DAY + 3_600_000);

/** An ethereum-etl export: one transaction per block, with its logs. */
class Export {
  private block = 19_000_000;
  private nonces = new Map<string, number>();
  private blocks: string[] = [];
  private txs: string[] = [];
  private logs: string[] = [];
  tx(from: string, to: string, when: Date, logs: Log[]) {
    const block = ++this.block;
    const ts = Math.floor(when.getTime() / 1000);
    const nonce = this.nonces.get(from) ?? 0;
    this.nonces.set(from, nonce + 1);
    const hash = keccak256(toHex(`${from}:${nonce}:${block}`));
    const bh = keccak256(toHex(block));
    this.blocks.push(JSON.stringify({ type: 'block', number: block, hash: bh, timestamp: ts, transaction_count: 1 }));
    this.txs.push(
      JSON.stringify({
        type: 'transaction',
        hash,
        nonce,
        transaction_index: 0,
        from_address: from,
        to_address: to,
        value: '0',
        gas: 900000,
        gas_price: 1e9,
        input: '0x',
        block_timestamp: ts,
        block_number: block,
        block_hash: bh,
        receipt_status: 1,
        receipt_contract_address: null,
      }),
    );
    logs.forEach((l, i) => {
      const abi = parseAbiItem(l.sig) as AbiEvent;
      const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: l.args as never }) as string[];
      const plain = abi.inputs.filter((x) => !x.indexed);
      const data = encodeAbiParameters(
        plain,
        plain.map((x) => l.args[x.name!]),
      );
      this.logs.push(
        JSON.stringify({
          type: 'log',
          log_index: i,
          transaction_hash: hash,
          transaction_index: 0,
          address: l.address,
          data,
          topics,
          block_number: block,
          block_timestamp: ts,
          block_hash: bh,
        }),
      );
    });
  }
  write() {
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-lending-'));
    writeFileSync(path.join(dir, 'blocks.json'), this.blocks.join('\n') + '\n');
    writeFileSync(path.join(dir, 'transactions.json'), this.txs.join('\n') + '\n');
    writeFileSync(path.join(dir, 'logs.json'), this.logs.join('\n') + '\n');
    return dir;
  }
}

const units = (asset: string, usd: number) => (BigInt(Math.round(usd * 100)) * DEC[asset]) / 100n;
const aave = {
  supply: (w: string, asset: string, usd: number): Log => ({
    address: POOL,
    sig: SIG.supply,
    args: { reserve: asset, user: w, onBehalfOf: w, amount: units(asset, usd), referralCode: 0 },
  }),
  borrow: (w: string, asset: string, usd: number): Log => ({
    address: POOL,
    sig: SIG.borrow,
    args: {
      reserve: asset,
      user: w,
      onBehalfOf: w,
      amount: units(asset, usd),
      interestRateMode: 2,
      borrowRate: 5n * 10n ** 25n,
      referralCode: 0,
    },
  }),
  repay: (w: string, asset: string, usd: number): Log => ({
    address: POOL,
    sig: SIG.repay,
    args: { reserve: asset, user: w, repayer: w, amount: units(asset, usd), useATokens: false },
  }),
  withdraw: (w: string, asset: string, usd: number): Log => ({
    address: POOL,
    sig: SIG.withdraw,
    args: { reserve: asset, user: w, to: w, amount: units(asset, usd) },
  }),
};
const comet = {
  supply: (w: string, usd: number): Log => ({ address: COMET, sig: SIG.cometSupply, args: { from: w, dst: w, amount: units(USDC, usd) } }),
  withdraw: (w: string, usd: number): Log => ({
    address: COMET,
    sig: SIG.cometWithdraw,
    args: { src: w, to: w, amount: units(USDC, usd) },
  }),
};
const transfer = (token: string, from: string, to: string, value: bigint): Log => ({
  address: token,
  sig: SIG.transfer,
  args: { from, to, value },
});

/** A flash loan from Balancer: the vault lends USDC, the wallet's executor loops it through Aave, pays it back. */
function flashLoop(
  x: Export,
  w: string,
  when: Date,
  supplyUsd: number,
  borrowUsd: number,
  opts: { withdraw?: boolean; comet?: boolean } = {},
) {
  const logs: Log[] = [
    transfer(USDC, BALANCER_VAULT, w, units(USDC, supplyUsd)),
    aave.supply(w, USDC, supplyUsd),
    aave.borrow(w, USDT, borrowUsd),
    aave.repay(w, USDT, borrowUsd),
  ];
  if (opts.withdraw !== false) logs.push(aave.withdraw(w, USDC, supplyUsd));
  if (opts.comet)
    logs.push(
      comet.supply(w, supplyUsd),
      comet.withdraw(w, supplyUsd + borrowUsd),
      comet.supply(w, borrowUsd),
      comet.withdraw(w, supplyUsd - borrowUsd),
    );
  logs.push(transfer(USDC, w, BALANCER_VAULT, units(USDC, supplyUsd)));
  x.tx(w, randomAddress(), when, logs);
}

const W = {
  fresh: randomAddress(),
  honestYear: randomAddress(),
  fiveCycles: randomAddress(),
  flash: randomAddress(),
  flashNoWithdraw: randomAddress(),
  preAged: randomAddress(),
};

function buildExport(): string {
  const x = new Export();
  // a fresh wallet: one plain transaction
  x.tx(W.fresh, randomAddress(), at(300), []);
  // a year of borrowing that pays its way: $100k of USDC collateral kept all year, $20k of DAI borrowed each month
  // and repaid 25 days later with about $68 of interest (5% a year): ~$820 of interest and ~$2,450 of its own capital
  // held (the model prices 600 at $1,000 of measured cost)
  x.tx(W.honestYear, POOL, at(0), [aave.supply(W.honestYear, USDC, 100_000)]);
  for (let m = 0; m < 12; m++) {
    x.tx(W.honestYear, POOL, at(30 * m + 3), [aave.borrow(W.honestYear, DAI, 20_000)]);
    x.tx(W.honestYear, POOL, at(30 * m + 28), [aave.repay(W.honestYear, DAI, 20_068.49)]);
  }
  // five supply/borrow/repay cycles over a year: $100k supplied, $35k borrowed for 60 days (~$288 of interest each),
  // repaid, withdrawn
  for (let c = 0; c < 5; c++) {
    const d = c * 73;
    x.tx(W.fiveCycles, POOL, at(d), [aave.supply(W.fiveCycles, USDC, 100_000)]);
    x.tx(W.fiveCycles, POOL, at(d + 1), [aave.borrow(W.fiveCycles, USDT, 35_000)]);
    x.tx(W.fiveCycles, POOL, at(d + 61), [aave.repay(W.fiveCycles, USDT, 35_287.67)]);
    x.tx(W.fiveCycles, POOL, at(d + 62), [aave.withdraw(W.fiveCycles, USDC, 100_000)]);
  }
  // row 1: one flash-loan transaction: $1.43M supplied, $1M borrowed and repaid, withdrawn, paid back
  flashLoop(x, W.flash, at(300), 1_430_000, 1_000_000);
  // row 2: $1M supplied, $700k borrowed and repaid in one transaction, nothing else
  flashLoop(x, W.flashNoWithdraw, at(300), 1_000_000, 700_000, { withdraw: false });
  // row 3: pre-aging: a token contract of the attacker airdrops 1 unit to the wallet once a month for 13 months,
  // then the flash loop, through Aave and through a Comet market
  const token = randomAddress();
  const deployer = randomAddress();
  for (let m = 0; m < 13; m++) x.tx(deployer, token, at(30 * m), [transfer(token, token, W.preAged, 1n)]);
  flashLoop(x, W.preAged, at(395), 1_430_000, 1_000_000, { comet: true });
  return x.write();
}

describe('lending credit that costs nothing (ethereum-etl import, real pinned contracts)', () => {
  let db: Db;
  const scores = new Map<string, Record<string, number>>();
  const lendingRows = new Map<string, { conduct: number; backing: number }>();

  beforeAll(async () => {
    db = await testDatabase();
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(
        await runIngestCommand(['--format', 'ethereum-etl', '--chain', '1', buildExport()], testConfig(), {
          db: { ...db, close: async () => undefined },
        }),
      ).toBe(0);
    } finally {
      log.mockRestore();
    }
    for (const [name, w] of Object.entries(W)) {
      const rows = await db.query<{ category: string; score: number; conduct: number; backing_usd: number | null }>(
        'SELECT category, score, conduct, backing_usd FROM scores WHERE address = $1',
        [w],
      );
      expect(rows.length, name).toBe(9);
      scores.set(name, Object.fromEntries(rows.map((r) => [r.category, r.score])));
      const l = rows.find((r) => r.category === 'DEFI_LENDING')!;
      lendingRows.set(name, { conduct: l.conduct, backing: Number(l.backing_usd ?? 0) });
    }
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  // the scores before these rules on these exports (measured before the change, see the header)
  const V2 = { honestYear: 810, fiveCycles: 807 };
  const lending = (w: string) => scores.get(w)!.DEFI_LENDING;
  const overall = (w: string) => scores.get(w)!.OVERALL;

  it('honest histories keep a high conduct (2.0.0 scored them 810 and 807), held to what backs it', () => {
    expect(lending('fresh')).toBe(0);
    for (const k of ['honestYear', 'fiveCycles'] as const) {
      const r = lendingRows.get(k)!;
      expect(r.conduct, `${k}: conduct ${r.conduct} (2.0.0 score ${V2[k]})`).toBeGreaterThan(550);
      // their interest beyond what the cash earns parked (this export has no receipts' gas) backs them
      expect(r.backing, k).toBeGreaterThan(0);
      expect(lending(k)).toBe(Math.min(r.conduct, ceilingFor(r.backing)));
    }
  });

  it('row 1: one flash-loan transaction through the Aave V3 Pool earns nothing (2.0.0: 839)', () => {
    expect(lending('flash')).toBeLessThanOrEqual(lending('fresh') + 50);
    expect(overall('flash')).toBeLessThanOrEqual(overall('fresh') + 100);
  });

  it('row 2: $1M supplied, $700k borrowed and repaid in one transaction earns nothing (2.0.0: 821)', () => {
    expect(lending('flashNoWithdraw')).toBeLessThanOrEqual(lending('fresh') + 50);
    expect(overall('flashNoWithdraw')).toBeLessThanOrEqual(overall('fresh') + 100);
  });

  it('row 3: thirteen months of airdrops, then the flash loop through Aave and Comet, earns nothing (2.0.0: 929)', () => {
    expect(lending('preAged')).toBeLessThanOrEqual(lending('fresh') + 50);
    expect(overall('preAged')).toBeLessThanOrEqual(overall('fresh') + 100);
  });
});
