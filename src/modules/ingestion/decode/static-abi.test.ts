// The direct decoder of static events against viem's strict decodeEventLog, on every event of the ABI: well-formed
// logs of random words, and the malformed ones a chain or an export can hold (short or long data, missing or extra
// topics, odd lengths, bad hex, bools other than 0 or 1, small integers with high bits set, uppercase hex).
import { describe, expect, it } from 'vitest';
import { decodeEventLog } from 'viem';
import { seeded } from '../../../platform/seeded-random.js';
import { EVENTS } from '../events.js';
import { decodeStatic, staticLayout } from './static-abi.js';

const random = seeded(32);
const hexWord = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
/** A word as a real encoder would write a value of the type (mostly), or any 32 bytes (sometimes). */
function word(type: string, anything: boolean): string {
  if (anything) return hexWord();
  if (type === 'address') return '0'.repeat(24) + hexWord().slice(24);
  if (type === 'bool') return '0'.repeat(63) + (random() < 0.5 ? '0' : '1');
  const int = /^(u?)int(\d*)$/.exec(type);
  if (int) {
    const bits = Number(int[2] || 256);
    const v = BigInt(`0x${hexWord()}`) & ((1n << BigInt(bits)) - 1n);
    const signed = int[1] === '' && random() < 0.5;
    return (signed ? BigInt.asUintN(256, -v) : v).toString(16).padStart(64, '0').slice(-64);
  }
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes)
    return hexWord()
      .slice(0, 2 * Number(bytes[1]))
      .padEnd(64, '0');
  throw new Error(type);
}

/** viem's answer with addresses lowercased (the direct path's form), or 'throws'. */
function viem(abi: (typeof EVENTS)[number]['abi'], topics: string[], data: string) {
  try {
    const args = decodeEventLog({ abi: [abi], topics: topics as [`0x${string}`], data: data as `0x${string}`, strict: true })
      .args as Record<string, unknown>;
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v.toLowerCase() : v]));
  } catch {
    return 'throws';
  }
}

const statics = EVENTS.filter((e) => staticLayout(e.abi));

describe('static events decoded without viem', () => {
  it('covers the events of static words, and leaves out those with strings, arrays or tuples', () => {
    expect(statics.map((e) => e.name)).toContain('Transfer');
    expect(statics.map((e) => e.name)).toContain('UniswapV3Swap');
    for (const name of ['VoteCast', 'TransferBatch', 'MorphoCreateMarket', 'BalancerPoolBalanceChanged', 'EnsNameRegisteredV1'])
      expect(statics.map((e) => e.name)).not.toContain(name);
  });

  it('gives viem strict answer on well-formed and malformed logs of every static event', () => {
    let compared = 0;
    for (const e of statics) {
      const layout = staticLayout(e.abi)!;
      const indexed = e.abi.inputs.filter((i) => i.indexed);
      const plain = e.abi.inputs.filter((i) => !i.indexed);
      for (let n = 0; n < 400; n++) {
        const anything = random() < 0.2;
        let topics = [e.topic0, ...indexed.map((i) => `0x${word(i.type, anything)}`)];
        let data = `0x${plain.map((i) => word(i.type, anything)).join('')}`;
        const mangle = random();
        if (mangle < 0.05) topics = topics.slice(0, -1);
        else if (mangle < 0.1) topics = [...topics, `0x${hexWord()}`];
        else if (mangle < 0.15) data = data.slice(0, -2);
        else if (mangle < 0.2) data = `${data}${hexWord()}`;
        else if (mangle < 0.23) data = `${data}0`;
        else if (mangle < 0.26) data = data.replace(/.$/, 'g');
        else if (mangle < 0.29 && topics.length > 1) topics[1] = topics[1].slice(0, -2);
        else if (mangle < 0.32) data = data.toUpperCase().replace(/^0X/, '0x');
        else if (mangle < 0.35 && topics.length > 1) topics[1] = `0x${topics[1].slice(2).toUpperCase()}`;
        else if (mangle < 0.37) data = '0x';
        const got = decodeStatic(layout, topics, data);
        const want = viem(e.abi, topics, data);
        // a log as an encoder writes it always takes the direct path; the rest may be deferred to viem (decode.ts)
        if (!anything && mangle >= 0.37) expect(got, `${e.name} ${topics.join(',')} ${data}`).not.toBeNull();
        if (got === null) continue;
        compared++;
        expect(got, `${e.name} ${topics.join(',')} ${data}`).toEqual(want);
      }
    }
    expect(compared).toBeGreaterThan(statics.length * 200);
  });

  it('defers malformed logs to viem: never a value where viem throws', () => {
    const transfer = EVENTS.find((e) => e.name === 'Transfer')!;
    const layout = staticLayout(transfer.abi)!;
    const a = `0x${'0'.repeat(24)}${'ab'.repeat(20)}`;
    const rejected: [string[], string][] = [
      [[transfer.topic0, a], `0x${'0'.repeat(64)}`], // a topic missing
      [[transfer.topic0, a, a], '0x'], // no data
      [[transfer.topic0, a, a], `0x${'0'.repeat(62)}`], // 31 bytes
    ];
    for (const [topics, data] of rejected) {
      expect(decodeStatic(layout, topics, data)).toBeNull();
      expect(viem(transfer.abi, topics, data)).toBe('throws');
    }
    // a 33-byte topic: viem reads its first word; deferred to it, not guessed
    expect(decodeStatic(layout, [transfer.topic0, a, `${a}00`], `0x${'0'.repeat(64)}`)).toBeNull();
  });
});
