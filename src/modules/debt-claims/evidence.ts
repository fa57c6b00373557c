// Checks a claim's evidence over the claim chain's configured JSON-RPC (CREDENCE_RPC_URL_<chainId>). The evidence
// counts only when it is what a loan looks like: a successful transaction the creditor sent, moving
// priced value (the principal) to the debtor, worth at least the floor, mined at least the minimum age before the
// claim. A zero-value transfer, a payment the other way, a token nobody prices, a same-day transaction: not found,
// with the reason. The creditor must also have sent transactions before the evidence (its nonce). Without an RPC
// for the chain the evidence is "unverifiable". Network failures throw, so the caller retries later.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPriceReader, createTransport, priceable, tokenInfo, type PriceReader, type Transport } from '../ingestion/index.js';

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 transfers share it (721s carry no data). */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** The chain's wrapped native token per chain id: native value is priced as it (data/debt-claims/wrapped-native.json). */
const WRAPPED_NATIVE: Record<string, { address: string }> = JSON.parse(
  readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data/debt-claims/wrapped-native.json'), 'utf8'),
).chains;

export type EvidenceStatus = 'found' | 'not_found' | 'unverifiable';

/** Why evidence does not count (shown on the claim as verification.evidenceProblem). */
export type EvidenceProblem =
  'not_mined' | 'reverted' | 'not_sent_by_creditor' | 'no_value_to_debtor' | 'unpriced' | 'below_floor' | 'too_recent' | 'no_rpc';

export interface EvidenceResult {
  evidence: EvidenceStatus;
  /** null when nothing could tell (no RPC) */
  creditorHasHistory: boolean | null;
  /** USD the transaction moved from the creditor to the debtor (null: nothing priced) */
  valueUsd: number | null;
  /** the evidence block's time */
  at: Date | null;
  problem: EvidenceProblem | null;
}

export interface EvidenceInput {
  chainId: number;
  hash: string;
  creditor: string;
  debtor: string;
  /** when the claim was filed: the evidence must be at least minAgeMs older */
  claimedAt: Date;
}

export interface EvidenceRules {
  minAgeMs: number;
  minPrincipalUsd: number;
}

export interface EvidenceChecker {
  check(c: EvidenceInput): Promise<EvidenceResult>;
  close(): Promise<void>;
}

interface RpcTx {
  from: string;
  to: string | null;
  value: string;
  blockNumber: string | null;
}
interface RpcReceipt {
  status?: string;
  logs: { address: string; topics: string[]; data: string }[];
}

const topicAddress = (t: string | undefined) => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);
const hex = (n: number) => `0x${n.toString(16)}`;

/** What moved from the creditor to the debtor: native value, and ERC-20 amounts per token (raw units). */
export function principalMoved(
  tx: RpcTx,
  receipt: RpcReceipt,
  creditor: string,
  debtor: string,
): { native: bigint; tokens: Map<string, bigint> } {
  const native = tx.to?.toLowerCase() === debtor ? BigInt(tx.value || '0x0') : 0n;
  const tokens = new Map<string, bigint>();
  for (const l of receipt.logs) {
    // ERC-20 only: three topics and a 32-byte amount (an ERC-721 Transfer indexes its token id, four topics)
    if (l.topics.length !== 3 || l.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
    if (topicAddress(l.topics[1]) !== creditor || topicAddress(l.topics[2]) !== debtor) continue;
    if (!/^0x[0-9a-fA-F]{64}$/.test(l.data)) continue;
    const token = l.address.toLowerCase();
    tokens.set(token, (tokens.get(token) ?? 0n) + BigInt(l.data));
  }
  return { native, tokens };
}

const units = (raw: bigint, decimals: number) => Number(raw) / 10 ** decimals;

export function createEvidenceChecker(deps: {
  rpcUrls: Record<number, string>;
  rules: () => EvidenceRules;
  timeoutMs?: number;
}): EvidenceChecker {
  const transports = new Map<number, Transport>();
  const readers = new Map<number, PriceReader>();
  function transport(chainId: number): Transport | null {
    const url = deps.rpcUrls[chainId];
    if (!url) return null;
    let t = transports.get(chainId);
    if (!t) {
      // the claim's job retries with backoff: few attempts here
      t = createTransport(url, { attempts: 2, timeoutMs: deps.timeoutMs ?? 10_000 });
      transports.set(chainId, t);
    }
    return t;
  }
  function reader(chainId: number, t: Transport): PriceReader {
    let r = readers.get(chainId);
    if (!r) {
      r = createPriceReader(chainId, (calls) =>
        t.batch<string>(calls.map((c) => ({ method: 'eth_call', params: [{ to: c.to, data: c.data }, hex(c.block)] }))),
      );
      readers.set(chainId, r);
    }
    return r;
  }

  /** USD value of what moved, valued like ingestion values events: stablecoins at 1, others by the oracle at the block. */
  async function valueUsd(chainId: number, t: Transport, block: number, moved: ReturnType<typeof principalMoved>): Promise<number | null> {
    let usd = 0;
    let priced = false;
    const wanted: { token: string; raw: bigint; decimals: number }[] = [];
    const native = WRAPPED_NATIVE[String(chainId)]?.address;
    if (moved.native > 0n && native && priceable(chainId, native)) wanted.push({ token: native, raw: moved.native, decimals: 18 });
    for (const [token, raw] of moved.tokens) {
      const info = tokenInfo(chainId, token);
      if (!info || raw === 0n) continue; // a token the registry does not know is worth nothing here
      if (info.stable) {
        usd += units(raw, info.decimals);
        priced = true;
      } else if (priceable(chainId, token)) wanted.push({ token, raw, decimals: info.decimals });
    }
    if (wanted.length) {
      const prices = await reader(chainId, t).read(wanted.map((w) => ({ token: w.token, block })));
      for (const w of wanted) {
        const p = prices(w.token, block);
        if (p) {
          usd += units(w.raw, w.decimals) * p;
          priced = true;
        }
      }
    }
    return priced ? usd : null;
  }

  return {
    async close() {
      await Promise.all([...transports.values()].map((t) => t.close()));
      transports.clear();
      readers.clear();
    },

    async check({ chainId, hash, creditor, debtor, claimedAt }) {
      const t = transport(chainId);
      const none = { valueUsd: null, at: null };
      if (!t) return { evidence: 'unverifiable', creditorHasHistory: null, ...none, problem: 'no_rpc' };
      const rules = deps.rules();
      const tx = await t.request<RpcTx | null>('eth_getTransactionByHash', [hash]);
      if (!tx || !tx.blockNumber) {
        const nonce = Number(await t.request<string>('eth_getTransactionCount', [creditor, 'latest']));
        return { evidence: 'not_found', creditorHasHistory: nonce > 0, ...none, problem: 'not_mined' };
      }
      const block = Number(tx.blockNumber);
      const [receipt, header] = await Promise.all([
        t.request<RpcReceipt | null>('eth_getTransactionReceipt', [hash]),
        t.request<{ timestamp: string } | null>('eth_getBlockByNumber', [tx.blockNumber, false]),
      ]);
      const at = header ? new Date(Number(header.timestamp) * 1000) : null;
      // History of its own: transactions the creditor sent before the evidence's block. Nodes without that block's
      // state (not archive) get the latest nonce less the evidence transaction itself.
      let before: number;
      try {
        before = block > 0 ? Number(await t.request<string>('eth_getTransactionCount', [creditor, hex(block - 1)])) : 0;
      } catch {
        const latest = Number(await t.request<string>('eth_getTransactionCount', [creditor, 'latest']));
        before = latest - (tx.from.toLowerCase() === creditor ? 1 : 0);
      }
      const base = { creditorHasHistory: before > 0, at };
      const fail = (problem: EvidenceProblem, value: number | null = null): EvidenceResult => ({
        evidence: 'not_found',
        ...base,
        valueUsd: value,
        problem,
      });
      if (!receipt || receipt.status === '0x0') return fail('reverted');
      // The creditor signed and paid for the loan: a transfer someone else made of its tokens is no loan of its own.
      if (tx.from.toLowerCase() !== creditor) return fail('not_sent_by_creditor');
      const moved = principalMoved(tx, receipt, creditor, debtor);
      if (moved.native === 0n && ![...moved.tokens.values()].some((v) => v > 0n)) return fail('no_value_to_debtor');
      const usd = await valueUsd(chainId, t, block, moved);
      if (usd === null) return fail('unpriced');
      if (usd < rules.minPrincipalUsd) return fail('below_floor', usd);
      // (a minimum age of 0 switches the rule off: a node's block times may run seconds ahead of this clock)
      if (rules.minAgeMs > 0 && (!at || claimedAt.getTime() - at.getTime() < rules.minAgeMs)) return fail('too_recent', usd);
      return { evidence: 'found', ...base, valueUsd: usd, problem: null };
    },
  };
}
