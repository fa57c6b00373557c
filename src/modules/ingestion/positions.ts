// A wallet's own Uniswap V3 liquidity. Swaps in a pool where the wallet holds liquidity partly trade against
// itself: the fee goes back to it, so the volume is nearly free. FEATURES_SQL (scoring/features/sql.ts) gives no trading credit for
// a wallet's swaps in a pool, from the block on where it opened a position there; this file finds those positions.
//
// A V3 position is an NFT of the pinned NonfungiblePositionManager (NPM), not a token of the pool, so the wallet's
// records alone do not say which pool it is in. The minting transaction does, and every source has its logs (the
// bulk import's export, a receipt over JSON-RPC or from the explorer): NPM.mint adds the liquidity at the pool
// (pool `Mint`, owner = the NPM), then mints the NFT (`Transfer` from zero), then emits IncreaseLiquidity. No code of
// the caller runs between the pool's Mint and the NFT's Transfer (the NPM mints with `_mint`, no receiver hook), so
// the position's pool is the emitter of the nearest NPM-owned Mint before the Transfer.
//
// Griefing: anyone can mint a position to any recipient, or send one, and anyone can emit an allowlisted token's
// Transfer(victim -> pool, 0) (a zero-value transferFrom needs no allowance). Only a position the wallet paid for
// counts: the minting transaction was sent by the wallet, and in it the wallet paid the pool a non-zero amount equal
// to what the pool's Mint took. A stranger can do neither, so nothing a stranger does takes a trader's credit away.
import { toEventSelector } from 'viem';
import type { ActivityRecord, RawLog } from './decode.js';
import { EVENTS, ZERO_ADDRESS } from './events.js';
import { contractInfo, isPositionManager, tokenInfo } from './registry/index.js';

const TRANSFER = EVENTS.find((e) => e.name === 'Transfer')!.topic0;
export const V3_POOL_MINT = toEventSelector(
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
);

const topicAddress = (t: string | undefined) => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);

/** A position NFT minted by the chain's pinned NPM (an ERC-721 Transfer from zero): returns its recipient. */
export function positionMintRecipient(chainId: number, log: Pick<RawLog, 'address' | 'topics'>): string | null {
  if (log.topics.length !== 4 || log.topics[0]?.toLowerCase() !== TRANSFER || topicAddress(log.topics[1]) !== ZERO_ADDRESS) return null;
  return isPositionManager(chainId, log.address) ? topicAddress(log.topics[2]) : null;
}

export interface MintingTransaction {
  hash: string;
  /** the transaction's sender (null: not known to be any particular wallet) */
  from: string | null;
  /** all of the transaction's logs (any order) */
  logs: RawLog[];
}

/**
 * The `lp_position` records of one transaction: one per position NFT the pinned NPM minted in it to a wallet that
 * paid for it (see the top of this file), with contract = the pool, counterparty = the NPM, token_id = the
 * position. These records earn nothing themselves; they only mark the pool.
 */
export function positionRecords(chainId: number, tx: MintingTransaction): ActivityRecord[] {
  const logs = [...tx.logs].sort((a, b) => a.logIndex - b.logIndex);
  const sender = tx.from?.toLowerCase() ?? null;
  const out: ActivityRecord[] = [];
  logs.forEach((log, i) => {
    const wallet = positionMintRecipient(chainId, log);
    if (!wallet || contractInfo(chainId, wallet)) return;
    const npm = log.address.toLowerCase();
    let mint: RawLog | undefined;
    for (let k = i - 1; k >= 0 && !mint; k--)
      if (logs[k].topics[0]?.toLowerCase() === V3_POOL_MINT && topicAddress(logs[k].topics[1]) === npm) mint = logs[k];
    if (!mint) return;
    const pool = mint.address.toLowerCase();
    // the pool's Mint data: sender, liquidity, amount0, amount1 (32 bytes each)
    const words = (mint.data ?? '0x').slice(2);
    const owed = [2, 3]
      .map((w) => (words.length >= 64 * (w + 1) ? BigInt(`0x${words.slice(64 * w, 64 * (w + 1))}`) : 0n))
      .filter((v) => v > 0n);
    const paid = logs.some(
      (l) =>
        l.topics.length === 3 &&
        l.topics[0]?.toLowerCase() === TRANSFER &&
        topicAddress(l.topics[1]) === wallet &&
        topicAddress(l.topics[2]) === pool &&
        !!tokenInfo(chainId, l.address) &&
        owed.includes(BigInt(l.data && l.data !== '0x' ? l.data : '0x0')),
    );
    // the wallet's own transaction, in which it paid the pool what its Mint took (non-zero): a stranger's zero-value
    // transferFrom(victim, pool, 0) with NPM.mint(recipient = victim) is neither
    if (sender !== wallet || !paid) return;
    out.push({
      chainId,
      txHash: tx.hash.toLowerCase(),
      logIndex: log.logIndex,
      wallet,
      kind: 'lp_position',
      blockNumber: log.blockNumber,
      occurredAt: log.timestamp,
      contract: pool,
      counterparty: npm,
      tokenId: BigInt(log.topics[3]).toString(),
      amount: null,
      direction: null,
      protocol: 'uniswap-v3',
      ref: null,
      valueUsd: null,
      txFrom: sender,
    });
  });
  return out;
}
