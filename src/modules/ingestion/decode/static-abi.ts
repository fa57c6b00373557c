// A direct decoder for events whose inputs are all static words (address, bool, intN, uintN, bytesN): most logs an
// import reads (ERC-20 Transfer, lending and swap events). viem's decodeEventLog re-derives the selector and copies
// the log into bytes for every call, a third of an import's decoding. The values are viem's (strict mode) but for
// addresses, which come lowercase (the decoders lowercase them anyway); a log this path cannot vouch for (a short or
// malformed topic or data, a bool other than 0 or 1, a small integer beyond 2^53) gets `null` and goes to viem,
// which then decodes or rejects it as before. decode.test.ts holds both to the same answers.
import type { AbiEvent } from 'viem';

type Word = { name: string; decode: (word: string) => unknown };

/** What a static event's words decode to, in input order; null for an event with a dynamic or unnamed input. */
export interface StaticLayout {
  topics: Word[];
  data: Word[];
}

const NOT_EXACT = Symbol('not exact');
const HEX_WORD = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** A word's decoder for a static elementary type (null: not one). */
function wordDecoder(type: string): ((word: string) => unknown) | null {
  if (type === 'address') return (w) => `0x${w.slice(24).toLowerCase()}`;
  if (type === 'bool') return (w) => (/^0{63}[01]$/.test(w) ? w.endsWith('1') : NOT_EXACT);
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes) return (w) => `0x${w.slice(0, 2 * Number(bytes[1])).toLowerCase()}`;
  const int = /^(u?)int(\d*)$/.exec(type);
  if (!int) return null;
  const signed = int[1] === '';
  const small = Number(int[2] || 256) <= 48; // viem returns a number up to 48 bits, a bigint beyond
  return (w) => {
    const raw = BigInt(`0x${w}`);
    const v = signed ? BigInt.asIntN(256, raw) : raw;
    if (!small) return v;
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : NOT_EXACT; // viem throws there: let it
  };
}

export function staticLayout(abi: AbiEvent): StaticLayout | null {
  const out: StaticLayout = { topics: [], data: [] };
  for (const input of abi.inputs) {
    const decode = wordDecoder(input.type);
    if (!decode || !input.name) return null;
    (input.indexed ? out.topics : out.data).push({ name: input.name, decode });
  }
  return out;
}

/** The event's arguments by name, or null when viem must decide (its strict mode would throw, or might). */
export function decodeStatic(layout: StaticLayout, topics: readonly string[], data: string): Record<string, unknown> | null {
  if (topics.length < layout.topics.length + 1) return null;
  const args: Record<string, unknown> = {};
  for (let i = 0; i < layout.topics.length; i++) {
    const t = topics[i + 1];
    if (!HEX_WORD.test(t)) return null;
    const v = layout.topics[i].decode(t.slice(2));
    if (v === NOT_EXACT) return null;
    args[layout.topics[i].name] = v;
  }
  if (layout.data.length) {
    if (typeof data !== 'string' || data.length < 2 + 64 * layout.data.length || !HEX.test(data)) return null;
    for (let i = 0; i < layout.data.length; i++) {
      const v = layout.data[i].decode(data.slice(2 + 64 * i, 66 + 64 * i));
      if (v === NOT_EXACT) return null;
      args[layout.data[i].name] = v;
    }
  }
  return args;
}
