// The fee of a transaction a wallet sent, as a 'tx_fee' record: gas is what the wallet lost for its evidence, and it
// backs the category that evidence belongs to (data/scoring/backing.json). The gas price counts at most
// the block's base fee where the source gives it, else at most the chain's cap: on Ethereum a tip goes to the block's
// builder, which an attacker can be, so a tip is never counted beyond the cap. An L2's data fee (receipt l1Fee) is
// paid to the chain and counts in full.
import { MODEL_PARAMS } from '../scoring/contracts.js';
import type { ActivityRecord } from './decode.js';

const CAPS = MODEL_PARAMS.backing.gasPriceCapGwei;

export interface TxFeeInput {
  chainId: number;
  hash: string;
  from: string;
  blockNumber: number;
  occurredAt: Date | null;
  /** receipt gasUsed */
  gasUsed: bigint;
  /** effective gas price paid (receipt effectiveGasPrice, else the transaction's gasPrice), wei */
  gasPrice: bigint;
  /** the block's base fee per gas, wei (null: not known to this source) */
  baseFee?: bigint | null;
  /** an OP-stack L2's data fee, wei */
  l1Fee?: bigint | null;
}

/** Wei a transaction's fee counts for (see the top of this file). */
export function countedFeeWei(t: Pick<TxFeeInput, 'chainId' | 'gasUsed' | 'gasPrice' | 'baseFee' | 'l1Fee'>): bigint {
  const cap = BigInt(Math.round((CAPS[String(t.chainId)] ?? 30) * 1e9));
  let price = t.gasPrice < cap ? t.gasPrice : cap;
  if (t.baseFee !== null && t.baseFee !== undefined && t.baseFee < price) price = t.baseFee;
  const l1 = t.l1Fee && t.l1Fee > 0n ? t.l1Fee : 0n;
  return t.gasUsed * price + l1;
}

export function txFeeRecord(t: TxFeeInput): ActivityRecord | null {
  if (t.gasUsed <= 0n || t.gasPrice < 0n) return null;
  const wei = countedFeeWei(t);
  if (wei <= 0n) return null;
  const from = t.from.toLowerCase();
  return {
    chainId: t.chainId,
    txHash: t.hash.toLowerCase(),
    logIndex: -5,
    wallet: from,
    kind: 'tx_fee',
    blockNumber: t.blockNumber,
    occurredAt: t.occurredAt,
    contract: null,
    counterparty: null,
    tokenId: null,
    amount: wei.toString(),
    direction: 'out',
    protocol: null,
    ref: t.gasUsed.toString(),
    valueUsd: null,
    txFrom: from,
  };
}

/** A decimal integer string or number from a source (ethereum-etl writes numbers, Etherscan strings): null if absent
 *  or not an integer. */
export function bigOrNull(v: unknown): bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(v)) return BigInt(v);
  return null;
}
