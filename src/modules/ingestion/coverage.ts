// Coverage: how much of a wallet's on-chain history the evidence behind its scores has read, per configured chain.
// "complete": every configured chain was read up to its final block by the last sync; "partial": some chain is
// not (yet) read to the end, so the score may rise or fall as the sync goes on; "none": no chain has a source,
// so nothing was read and the scores say nothing about on-chain activity (reason NO_CHAIN_SOURCE).
// A wallet whose activity touched a contract of a known lending or trading protocol that is not read
// (data/registry/unread.json, or a pool one of its listed factories derives: coverage-repo.ts) is "partial" too, whatever
// the sync: reason UNREAD_PROTOCOL:<protocols, comma-separated>,
// so "no lending evidence" is never read as "never borrowed" where it borrowed somewhere unread.
// Each chain also names the lending and trading protocols read there (registry protocolsRead), so a reader can tell
// "no activity on Aave, Morpho Blue, ..." from "no activity at all".
import { UNREAD_PROTOCOL, type Coverage } from '../scoring/contracts.js';
import type { ChainCoverageRow } from './coverage-repo.js';
import { protocolsRead } from './registry/index.js';

export const NO_CHAIN_SOURCE = 'NO_CHAIN_SOURCE';

export const noSourceCoverage = (at: Date): Coverage => ({ status: 'none', asOf: at, reason: NO_CHAIN_SOURCE, chains: [] });

export function coverageOf(
  chains: number[],
  rows: ChainCoverageRow[],
  at: Date,
  explorer: boolean,
  rpcChains: number[],
  unread: string[] = [],
): Coverage {
  if (!chains.length) return noSourceCoverage(at);
  const list = chains.map((chainId) => {
    const r = rows.find((x) => x.chainId === chainId);
    const configured = explorer && rpcChains.includes(chainId) ? 'explorer+rpc' : explorer ? 'explorer' : 'rpc';
    return {
      chainId,
      syncedToBlock: r?.syncedToBlock ?? null,
      finalizedBlock: r?.finalizedBlock ?? null,
      complete: !!r?.complete && r.syncedToBlock !== null && r.finalizedBlock !== null && r.syncedToBlock >= r.finalizedBlock,
      source: r?.source ?? configured,
      protocols: protocolsRead(chainId),
    };
  });
  const names = [...new Set(unread)].sort();
  return {
    status: list.every((c) => c.complete) && !names.length ? 'complete' : 'partial',
    asOf: at,
    reason: names.length ? `${UNREAD_PROTOCOL}:${names.join(',')}` : null,
    chains: list,
  };
}
