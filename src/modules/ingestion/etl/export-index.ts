// The export's index in typed arrays instead of Maps of strings, Dates and bigints. A Map entry of a transaction
// hash and its sender as lower-case strings took about 190 bytes; a year of one protocol's events (tens of millions
// of rows, millions of transactions) then needed gigabytes for the index alone, and a Map holds at most 2^24 entries
// (V8 throws past that). Here a transaction costs 36 bytes a slot (about 64 with the table's free slots), a block
// 12 bytes (its time and base fee).

/** what the decoding reads of each part of the index */
export interface Lookup<K, V> {
  get(key: K): V | undefined;
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** a slot's state: free, sender in the slot, sender in the Map (not written as an address) */
const INLINE = 1;
const ASIDE = 2;

/** a hex digit's value by its character code; 16: not a hex digit */
const DIGIT = new Uint8Array(65536).fill(16);
for (let i = 0; i < 16; i++) DIGIT[i.toString(16).charCodeAt(0)] = DIGIT[i.toString(16).toUpperCase().charCodeAt(0)] = i;

/**
 * The first `words` 32-bit words of `s` into `out`: false (and `out` partly written) when `s` is not 0x (or 0X) and
 * `digits` hex digits.
 */
function readWords(s: string, digits: number, words: number, out: Uint32Array, from = 0): boolean {
  if (s.length !== 2 + digits || s.charCodeAt(0) !== 48 /* 0 */ || (s.charCodeAt(1) | 32) !== 120 /* x */) return false;
  let w = 0;
  for (let i = 2; i < s.length; i++) {
    const d = DIGIT[s.charCodeAt(i)];
    if (d === 16) return false;
    w = (w << 4) | d;
    const k = (i - 2) >> 3;
    if ((i & 7) === 1 && k < words) out[from + k] = w;
  }
  return true;
}

/**
 * Transaction hash -> sender. The key kept is the hash's first 128 bits: a keccak-256 output's, so two transactions
 * of an export share them with a probability near 2^-128 per pair, and a sender cannot be made to look like
 * another's without a 2^128 search. A hash not written as 0x + 64 hex digits, or a sender not as 0x + 40, is kept
 * in a Map as before (lower case), so no value reads differently.
 */
export class TxSenders implements Lookup<string, string> {
  /** per slot: 4 words of the hash, then 5 words of the sender */
  private slots: Uint32Array;
  private used: Uint8Array;
  private capacity: number;
  private count = 0;
  private readonly other = new Map<string, string>();
  /** the key being read (set, get) */
  private readonly key = new Uint32Array(4);
  private lastHash: string | null = null;
  private lastSender: string | undefined;

  constructor(initialCapacity = 1 << 12) {
    this.capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.slots = new Uint32Array(this.capacity * 9);
    this.used = new Uint8Array(this.capacity);
  }

  /** transactions in the table (those with an odd hash aside) */
  get size(): number {
    return this.count;
  }

  /** bytes held by the table (the Map of odd values aside) */
  get bytes(): number {
    return this.slots.byteLength + this.used.byteLength;
  }

  set(hash: string, sender: string): void {
    this.lastHash = null;
    const key = this.key;
    if (!readWords(hash, 64, 4, key)) {
      this.other.set(hash.toLowerCase(), sender.toLowerCase());
      return;
    }
    if ((this.count + 1) * 4 > this.capacity * 3) this.grow();
    const at = this.find(key[0], key[1], key[2], key[3]);
    const o = at * 9;
    if (!this.used[at]) {
      this.count++;
      this.slots.set(key, o);
    }
    if (readWords(sender, 40, 5, this.slots, o + 4)) this.used[at] = INLINE;
    else {
      // a sender not written as an address: kept as it was, under the hash as written (lower case)
      this.used[at] = ASIDE;
      this.other.set(hash.toLowerCase(), sender.toLowerCase());
    }
  }

  get(hash: string): string | undefined {
    // a transaction's logs come one after another: the last answer is the next one's too
    if (hash === this.lastHash) return this.lastSender;
    const sender = this.lookup(hash);
    this.lastHash = hash;
    this.lastSender = sender;
    return sender;
  }

  private lookup(hash: string): string | undefined {
    const key = this.key;
    if (!readWords(hash, 64, 4, key)) return this.other.get(hash.toLowerCase());
    const at = this.find(key[0], key[1], key[2], key[3]);
    if (this.used[at] !== INLINE) return this.used[at] === ASIDE ? this.other.get(hash.toLowerCase()) : undefined;
    let out = '0x';
    const o = at * 9 + 4;
    for (let i = 0; i < 5; i++) {
      const w = this.slots[o + i];
      out += BYTE_HEX[w >>> 24] + BYTE_HEX[(w >>> 16) & 255] + BYTE_HEX[(w >>> 8) & 255] + BYTE_HEX[w & 255];
    }
    return out;
  }

  /** the slot holding this key, or the free slot where it would go (linear probing; the hash is uniform already) */
  private find(h0: number, h1: number, h2: number, h3: number): number {
    const mask = this.capacity - 1;
    for (let at = h0 & mask; ; at = (at + 1) & mask) {
      if (!this.used[at]) return at;
      const o = at * 9;
      const s = this.slots;
      if (s[o] === h0 && s[o + 1] === h1 && s[o + 2] === h2 && s[o + 3] === h3) return at;
    }
  }

  private grow(): void {
    const { slots, used, capacity } = this;
    this.capacity = capacity * 2;
    this.slots = new Uint32Array(this.capacity * 9);
    this.used = new Uint8Array(this.capacity);
    for (let i = 0; i < capacity; i++) {
      if (!used[i]) continue;
      const o = i * 9;
      const at = this.find(slots[o], slots[o + 1], slots[o + 2], slots[o + 3]);
      this.used[at] = used[i];
      this.slots.set(slots.subarray(o, o + 9), at * 9);
    }
  }
}

const PAGE = 4096;

/** A value per block number in pages of a typed array, made as blocks appear: 4 or 8 bytes a block. */
class BlockPages<A extends Uint32Array | Float64Array> {
  private readonly pages = new Map<number, A>();
  constructor(private readonly make: () => A) {}

  put(block: number, v: number): void {
    const p = Math.floor(block / PAGE);
    let page = this.pages.get(p);
    if (!page) this.pages.set(p, (page = this.make()));
    page[block - p * PAGE] = v;
  }

  at(block: number): number | undefined {
    return this.pages.get(Math.floor(block / PAGE))?.[block % PAGE];
  }

  get bytes(): number {
    let n = 0;
    for (const p of this.pages.values()) n += p.byteLength;
    return n;
  }
}

const blockNumber = (b: number) => Number.isSafeInteger(b) && b >= 0;

/** Block -> time (whole seconds, as ethereum-etl writes them). A time outside 0..2^32-2 s is kept in a Map. */
export class BlockTimes implements Lookup<number, Date> {
  /** seconds + 1; 0: not known */
  private readonly pages = new BlockPages(() => new Uint32Array(PAGE));
  private readonly other = new Map<number, Date>();

  set(block: number, seconds: number): void {
    if (blockNumber(block) && Number.isInteger(seconds) && seconds >= 0 && seconds < 0xffffffff) {
      this.other.delete(block);
      this.pages.put(block, seconds + 1);
    } else {
      if (blockNumber(block)) this.pages.put(block, 0);
      this.other.set(block, new Date(seconds * 1000));
    }
  }

  get(block: number): Date | undefined {
    const v = blockNumber(block) ? this.pages.at(block) : undefined;
    return v ? new Date((v - 1) * 1000) : this.other.get(block);
  }

  get bytes(): number {
    return this.pages.bytes;
  }
}

/** Block -> base fee (wei). A fee past 2^53 (never seen; it would be 9 million gwei) is kept in a Map. */
export class BlockFees implements Lookup<number, bigint> {
  /** the fee; NaN: not known */
  private readonly pages = new BlockPages(() => new Float64Array(PAGE).fill(NaN));
  private readonly other = new Map<number, bigint>();

  set(block: number, fee: bigint): void {
    if (blockNumber(block) && fee >= 0n && fee <= BigInt(Number.MAX_SAFE_INTEGER)) {
      this.other.delete(block);
      this.pages.put(block, Number(fee));
    } else {
      if (blockNumber(block)) this.pages.put(block, NaN);
      this.other.set(block, fee);
    }
  }

  get(block: number): bigint | undefined {
    const v = blockNumber(block) ? this.pages.at(block) : undefined;
    return v !== undefined && !Number.isNaN(v) ? BigInt(v) : this.other.get(block);
  }

  get bytes(): number {
    return this.pages.bytes;
  }
}
