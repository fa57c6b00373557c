// The Transfer logs of an export's logs files that gave records, by block and log index (and a fingerprint of their
// transaction): a token_transfers row is the same log decoded by ethereum-etl, so one found here is left out before
// it is decoded and sent, instead of by the database's probe of stored logs (writer.ts), which still covers the rest
// (a resumed import whose logs file was done in an earlier run, a log beyond the cap). Two typed arrays (12 bytes a
// log, capped at CAP logs: 48 MB), searched by bisection once sorted.

const CAP = 4_000_000;
/** log indexes up to 2^20 (a block holds a few thousand logs): block * 2^20 + index stays an exact double */
const INDEX_SPAN = 2 ** 20;

/** 32 bits of the transaction hash (FNV-1a of its lowercase text): a row at the same position but of another
 *  transaction is not the same log */
function fingerprint(txHash: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < txHash.length; i++) h = Math.imul(h ^ (txHash.charCodeAt(i) | 0x20), 0x01000193);
  return h | 0;
}

export class LogKeys {
  private keys = new Float64Array(1024);
  private prints = new Int32Array(1024);
  private size = 0;
  private sorted = true;

  add(block: number, logIndex: number, txHash: string): void {
    if (this.size >= CAP || !Number.isSafeInteger(block) || block < 0 || !(logIndex >= 0 && logIndex < INDEX_SPAN)) return;
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      const prints = new Int32Array(this.size * 2);
      prints.set(this.prints);
      this.keys = keys;
      this.prints = prints;
    }
    const key = block * INDEX_SPAN + logIndex;
    if (this.size && key < this.keys[this.size - 1]) this.sorted = false;
    this.keys[this.size] = key;
    this.prints[this.size++] = fingerprint(txHash);
  }

  has(block: number, logIndex: number, txHash: string): boolean {
    if (!this.size || !Number.isSafeInteger(block) || !(logIndex >= 0 && logIndex < INDEX_SPAN)) return false;
    if (!this.sorted) this.sort();
    const key = block * INDEX_SPAN + logIndex;
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid];
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return this.prints[mid] === fingerprint(txHash);
    }
    return false;
  }

  private sort(): void {
    const order = Array.from({ length: this.size }, (_, i) => i).sort((a, b) => this.keys[a] - this.keys[b]);
    this.keys = Float64Array.from(order, (i) => this.keys[i]);
    this.prints = Int32Array.from(order, (i) => this.prints[i]);
    this.sorted = true;
  }
}
