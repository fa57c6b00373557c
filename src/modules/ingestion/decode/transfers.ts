// Token transfers: ERC-20 (and the position tokens among them: aTokens, cTokens, Comet markets), ERC-721 and
// ERC-1155.
import { ZERO_ADDRESS, type ActivityKind } from '../events.js';
import { isPositionManager, tokenInfo } from '../registry/index.js';
import { evidenceValue } from '../registry/gate.js';
import { aTokenTransfer } from './aave.js';
import { cometTransfer, cTokenTransfer } from './compound.js';
import type { ActivityRecord, Add, DecodeContext, Decoders, LogScope, RawLog } from './scope.js';

/** ERC-721 Transfer shares ERC-20's selector but indexes tokenId: decode.ts tells them apart by the topic count. */
export function erc721Transfer(log: RawLog, ctx: DecodeContext, contract: string, add: Add): void {
  const from = topicAddress(log.topics[1]);
  const to = topicAddress(log.topics[2]);
  const tokenId = BigInt(log.topics[3]).toString();
  // a Uniswap V3 position NFT is liquidity, not a collectible: no NFT evidence (positions.ts reads its mint). Its
  // burn (only its owner can, once the liquidity is out) ends the pool's self-dealing marker (scoring/features/sql.ts)
  if (isPositionManager(ctx.chainId, contract)) {
    if (to === ZERO_ADDRESS) add(from, 'lp_liquidity', { tokenId, ref: 'burn', protocol: 'uniswap-v3' });
    return;
  }
  nftTransfer(add, from, to, 'transfer_erc721', { tokenId, amount: '1' });
}

const topicAddress = (t: string | undefined): string | null => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);

function erc20Transfer(s: LogScope): void {
  const from = s.a('from');
  const to = s.a('to');
  const value = s.n('value');
  // no score uses a transfer's value: only stablecoins are valued, no oracle read is spent on them
  const valueUsd = evidenceValue(s.ctx.chainId, s.contract, value);
  // 'listed': an allowlisted token (registry): moving it costs something real, unlike a token anyone can mint
  const protocol = tokenInfo(s.ctx.chainId, s.contract) ? 'listed' : null;
  s.add(from, 'transfer_erc20', { direction: 'out', counterparty: to, amount: value, valueUsd, protocol });
  s.add(to, 'transfer_erc20', { direction: 'in', counterparty: from, amount: value, valueUsd, protocol });
  aTokenTransfer(s, from, to);
  cTokenTransfer(s, from, to);
  cometTransfer(s, from, to);
}

function erc1155Batch(s: LogScope): void {
  const ids = s.args.ids as bigint[];
  const values = s.args.values as bigint[];
  const total = values.reduce((sum, v) => sum + v, 0n).toString();
  nftTransfer(s.add, s.a('from'), s.a('to'), 'transfer_erc1155', { tokenId: ids.length === 1 ? ids[0].toString() : null, amount: total });
}

export const transferDecoders: Decoders = {
  Transfer: erc20Transfer,
  TransferSingle: (s) => nftTransfer(s.add, s.a('from'), s.a('to'), 'transfer_erc1155', { tokenId: s.n('id'), amount: s.n('value') }),
  TransferBatch: erc1155Batch,
};

function nftTransfer(add: Add, from: string | null, to: string | null, kind: ActivityKind, f: Partial<ActivityRecord>) {
  if (from === ZERO_ADDRESS) {
    add(to, 'nft_mint', { ...f, direction: 'in', counterparty: null });
    return;
  }
  add(from, kind, { ...f, direction: 'out', counterparty: to });
  add(to, kind, { ...f, direction: 'in', counterparty: from });
}
