// The import's write queue: writes run one at a time in the order pushed, each push returns once the write before
// it is done, and a failed write stops every later one (the import then resumes from the last committed offset).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../../test/helpers/db.js';
import type { Db } from '../../../platform/db/index.js';
import type { ActivityRecord } from '../decode.js';
import { storeActivity, writeQueue } from './writer.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('writeQueue', () => {
  it('runs writes in order, one at a time, while the next batch is prepared', async () => {
    const q = writeQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const write = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise<void>((r) => gates.push(r));
      log.push(`end ${name}`);
      running--;
    };
    await q.push(write('a')); // nothing before it: returns at once, with a running
    log.push('prepared b');
    const pushedB = q.push(write('b'));
    await tick();
    expect(log).toEqual(['start a', 'prepared b']);
    gates.shift()!();
    await pushedB; // returns once a is done, b now running
    expect(log).toEqual(['start a', 'prepared b', 'end a', 'start b']);
    gates.shift()!();
    await q.drain();
    expect(log.at(-1)).toBe('end b');
    expect(most).toBe(1);
  });

  it('a failed write fails the next push and the drain, and nothing after it runs', async () => {
    const q = writeQueue();
    const ran: string[] = [];
    await q.push(async () => {
      ran.push('a');
      throw new Error('connection lost');
    });
    await expect(q.push(async () => void ran.push('b'))).rejects.toThrow('connection lost');
    await expect(q.drain()).rejects.toThrow('connection lost');
    expect(ran).toEqual(['a']);
  });

  it('with two writers, two writes run at once and each offset is saved only after every batch before it', async () => {
    const q = writeQueue(2);
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const gates = new Map<string, () => void>();
    const write = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise<void>((r) => gates.set(name, r));
      log.push(`end ${name}`);
      running--;
    };
    const saved: string[] = [];
    const after = (name: string) => async () => void saved.push(name);
    await q.push(write('a'), after('a'));
    await q.push(write('b'), after('b')); // a slot was free: b runs beside a
    expect(log).toEqual(['start a', 'start b']);
    const pushedC = q.push(write('c'), after('c')); // waits for a slot
    gates.get('b')!(); // b ends first: its offset waits for a's
    await pushedC;
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    await tick();
    expect(saved).toEqual([]);
    gates.get('a')!();
    await tick();
    await tick();
    expect(saved).toEqual(['a', 'b']);
    gates.get('c')!();
    await q.drain();
    expect(saved).toEqual(['a', 'b', 'c']);
    expect(most).toBe(2);
  });

  it('with two writers, a failed write saves no later offset and fails the pushes after it and the drain', async () => {
    const q = writeQueue(2);
    const saved: string[] = [];
    let failA!: (e: Error) => void;
    await q.push(
      () => new Promise<void>((_, j) => (failA = j)),
      async () => void saved.push('a'),
    );
    await q.push(
      async () => undefined,
      async () => void saved.push('b'),
    );
    failA(new Error('connection lost'));
    await tick();
    await expect(q.push(async () => undefined)).rejects.toThrow('connection lost');
    await expect(q.drain()).rejects.toThrow('connection lost');
    expect(saved).toEqual([]);
  });
});

describe('storeActivity', () => {
  let db: Db;
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterAll(() => db?.close());
  const rec = (
    tx: string,
    logIndex: number,
    wallet: string,
    kind: ActivityRecord['kind'],
    at: Date | null = new Date('2023-05-02T00:00:00Z'),
  ): ActivityRecord => ({
    chainId: 1,
    txHash: tx,
    logIndex,
    wallet,
    kind,
    blockNumber: 17173049,
    occurredAt: at,
    contract: '0x' + 'c'.repeat(40),
    counterparty: null,
    tokenId: null,
    amount: '1',
    direction: 'in',
    protocol: null,
    ref: null,
    valueUsd: null,
    txFrom: null,
  });
  const a = '0x' + 'a'.repeat(40);
  const b = '0x' + 'b'.repeat(40);
  const tx = (n: number) => '0x' + n.toString(16).padStart(64, '0');

  it('counts what it stored (and how much of it has no time); stored records are not stored twice', async () => {
    const first = await storeActivity(db, [
      rec(tx(1), 0, a, 'transfer_erc20'),
      rec(tx(1), 0, b, 'transfer_erc20', null),
      rec(tx(2), -1, a, 'transfer_native'),
    ]);
    expect(first).toEqual({ wallets: new Set([a, b]), stored: 3, undated: 1 });
    const again = await storeActivity(db, [rec(tx(1), 0, a, 'transfer_erc20'), rec(tx(3), 1, b, 'swap')]);
    expect(again).toEqual({ wallets: new Set([b]), stored: 1, undated: 0 });
  });

  it('skipStoredLogs: a transfer whose log is stored under any wallet or kind is left out, both sides of a new one kept', async () => {
    // tx(1) log 0 is stored (transfer_erc20 above); a token_transfers row of it decodes to records of other kinds
    const r = await storeActivity(
      db,
      [rec(tx(1), 0, a, 'transfer_erc721'), rec(tx(4), 2, a, 'transfer_erc20'), rec(tx(4), 2, b, 'transfer_erc20')],
      { skipStoredLogs: true },
    );
    expect(r).toEqual({ wallets: new Set([a, b]), stored: 2, undated: 0 });
  });
});
