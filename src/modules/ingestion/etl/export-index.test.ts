import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlockFees, BlockTimes, TxSenders } from './export-index.js';

const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`;
const mixed = (s: string) => `0x${[...s.slice(2)].map((c, i) => (i % 3 ? c.toUpperCase() : c)).join('')}`;

describe('TxSenders', () => {
  it('answers as a Map of lower-case strings would, through growth, overwrites and odd values', () => {
    const senders = new TxSenders(16);
    const reference = new Map<string, string>();
    const keys: string[] = [];
    const put = (hash: string, sender: string) => {
      senders.set(hash, sender);
      reference.set(hash.toLowerCase(), sender.toLowerCase());
    };
    for (let i = 0; i < 50_000; i++) {
      const hash = hex(32);
      keys.push(hash);
      put(i % 7 ? hash : mixed(hash), i % 5 ? hex(20) : mixed(hex(20)));
    }
    // overwrites: the last sender wins, in any case of the hash
    for (let i = 0; i < 2000; i++) put(mixed(keys[i * 3]), hex(20));
    // not written as a hash or an address: kept as written (lower case)
    put('0xabc', hex(20));
    put('not a hash', 'not an address');
    put(keys[10], 'an odd sender');
    put(keys[11], '0x1234');
    put(keys[12], 'an odd sender');
    put(keys[12], hex(20)); // back to an address
    put(`0X${keys[13].slice(2).toUpperCase()}`, hex(20));

    expect(senders.size).toBe(50_000);
    for (const [hash, sender] of reference) {
      expect(senders.get(hash)).toBe(sender);
      expect(senders.get(hash.toUpperCase().replace('0X', '0x'))).toBe(sender);
    }
    for (let i = 0; i < 5000; i++) expect(senders.get(hex(32))).toBeUndefined();
    expect(senders.get('0x')).toBeUndefined();
    expect(senders.get('')).toBeUndefined();
    // a hash differing from a stored one in its first 128 bits (the key kept) is another transaction
    const a = keys[20].toLowerCase();
    const flip = (s: string, at: number) => `${s.slice(0, at)}${s[at] === 'f' ? '0' : 'f'}${s.slice(at + 1)}`;
    for (const at of [2, 9, 17, 33]) expect(senders.get(flip(a, at))).toBeUndefined();
    // past them it is the same key: two transactions' keccak hashes share 128 bits with a probability near 2^-128
    expect(senders.get(flip(a, 34))).toBe(reference.get(a));
  });

  it('holds a transaction in about half of what a Map of strings took, or less', () => {
    const senders = new TxSenders();
    for (let i = 0; i < 100_000; i++) senders.set(hex(32), hex(20));
    // 36 bytes a slot, at most 4 slots in 3 free after a growth: <= 101 bytes a transaction (a Map: ~190)
    expect(senders.bytes / senders.size).toBeLessThan(101);
  });
});

describe('BlockTimes and BlockFees', () => {
  it('return what was set, and nothing for a block never set', () => {
    const times = new BlockTimes();
    const fees = new BlockFees();
    const blocks = [0, 1, 4095, 4096, 17_173_049, 300_000_000, 2 ** 40];
    blocks.forEach((b, i) => {
      times.set(b, 1_700_000_000 + i);
      fees.set(b, BigInt(i * 1_000_000_007));
    });
    blocks.forEach((b, i) => {
      expect(times.get(b)).toEqual(new Date((1_700_000_000 + i) * 1000));
      expect(fees.get(b)).toBe(BigInt(i * 1_000_000_007));
    });
    for (const b of [2, 4097, 17_173_050, NaN, -1, 1.5]) {
      expect(times.get(b)).toBeUndefined();
      expect(fees.get(b)).toBeUndefined();
    }
  });

  it('keep a time or a fee the pages cannot hold, exactly, and the last one set', () => {
    const times = new BlockTimes();
    const fees = new BlockFees();
    times.set(5, 0);
    times.set(6, 2 ** 33);
    times.set(7, 12.5);
    times.set(-3, 100);
    expect(times.get(5)).toEqual(new Date(0));
    expect(times.get(6)).toEqual(new Date(2 ** 33 * 1000));
    expect(times.get(7)).toEqual(new Date(12_500));
    expect(times.get(-3)).toEqual(new Date(100_000));
    times.set(6, 42);
    expect(times.get(6)).toEqual(new Date(42_000));
    times.set(5, 2 ** 40);
    expect(times.get(5)).toEqual(new Date(2 ** 40 * 1000));

    const big = 2n ** 60n + 1n;
    fees.set(9, big);
    fees.set(10, 0n);
    fees.set(11, 2n ** 53n - 1n);
    expect(fees.get(9)).toBe(big);
    expect(fees.get(10)).toBe(0n);
    expect(fees.get(11)).toBe(2n ** 53n - 1n);
    fees.set(9, 7n);
    expect(fees.get(9)).toBe(7n);
    fees.set(10, big);
    expect(fees.get(10)).toBe(big);
  });
});
