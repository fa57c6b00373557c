// The shape of every provider answer the sync reads, checked at the transport: a node or gateway that
// answers a block whose number is not a quantity (or a log without a block number, a balance that is not hex...)
// once put NaN into SQL and ended `credence ingest --wallet` on an uncaught exception. A malformed answer is a
// provider error like a refusal: retried with back-off, then reported; nothing downstream sees it.

const QUANTITY = /^0x[0-9a-f]{1,64}$/i;
const DATA = /^0x[0-9a-f]*$/i;
const HASH = /^0x[0-9a-f]{64}$/i;
const ADDRESS = /^0x[0-9a-f]{40}$/i;

type Check = (v: unknown) => string | null;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const quantity: Check = (v) => (typeof v === 'string' && QUANTITY.test(v) ? null : `${JSON.stringify(v)?.slice(0, 40)} is not a quantity`);
const data: Check = (v) => (typeof v === 'string' && DATA.test(v) ? null : 'is not hex data');
const field =
  (name: string, check: Check, nullable = false): Check =>
  (o) => {
    const v = (o as Record<string, unknown>)[name];
    if (nullable && (v === null || v === undefined)) return null;
    const bad = check(v);
    return bad && `${name} ${bad}`;
  };
const object =
  (...checks: Check[]): Check =>
  (v) => {
    if (!isObj(v)) return 'is not an object';
    for (const c of checks) {
      const bad = c(v);
      if (bad) return bad;
    }
    return null;
  };
const nullable =
  (c: Check): Check =>
  (v) =>
    v === null ? null : c(v);
const arrayOf =
  (c: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return 'is not an array';
    for (let i = 0; i < v.length; i++) {
      const bad = c(v[i]);
      if (bad) return `[${i}] ${bad}`;
    }
    return null;
  };

const log = object(
  field('address', (v) => (typeof v === 'string' && ADDRESS.test(v) ? null : 'is not an address')),
  field('topics', arrayOf(data)),
  field('data', data),
  field('blockNumber', quantity),
  field('logIndex', quantity),
  field('transactionHash', (v) => (typeof v === 'string' && HASH.test(v) ? null : 'is not a transaction hash')),
);
// a pending block has no number: only a mined one is read here, but the tag answers are nullable by the spec
const block = nullable(object(field('number', quantity, true), field('timestamp', quantity, true)));

const CHECKS: Record<string, Check> = {
  eth_blockNumber: quantity,
  eth_chainId: quantity,
  eth_getBalance: quantity,
  eth_getTransactionCount: quantity,
  eth_getCode: data,
  eth_call: data,
  eth_getLogs: arrayOf(log),
  eth_getBlockByNumber: block,
  eth_getBlockByHash: block,
  eth_getTransactionReceipt: nullable(object(field('blockNumber', quantity, true), field('logs', arrayOf(log)))),
  eth_getTransactionByHash: nullable(
    object(
      field('blockNumber', quantity, true),
      field('from', (v) => (typeof v === 'string' && ADDRESS.test(v) ? null : 'is not an address')),
    ),
  ),
};

/** Why the answer to `method` is malformed, or null when it has the shape the sync reads. */
export function malformedAnswer(method: string, value: unknown): string | null {
  const check = CHECKS[method];
  if (!check) return null;
  const bad = check(value);
  return bad && `malformed answer to ${method}: ${bad}`;
}
