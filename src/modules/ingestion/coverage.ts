// Coverage: how much of a wallet's on-chain history the evidence behind its scores has read, per configured chain.
// "complete": every configured chain was read up to its final block by the last sync; "partial": some chain is
// not (yet) read to the end, so the score may rise or fall as the sync goes on; "none": no chain has a source,
// so nothing was read and the scores say nothing about on-chain activity (reason NO_CHAIN_SOURCE).
import type { Coverage } from '../scoring/contracts.js';
import type { ChainCoverageRow } from './coverage-repo.js';

export const NO_CHAIN_SOURCE = 'NO_CHAIN_SOURCE';

export const noSourceCoverage = (at: Date): Coverage => ({ status: 'none', asOf: at, reason: NO_CHAIN_SOURCE, chains: [] });

export function coverageOf(chains: number[], rows: ChainCoverageRow[], at: Date, explorer: boolean, rpcChains: number[]): Coverage {
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
    };
  });
  return { status: list.every((c) => c.complete) ? 'complete' : 'partial', asOf: at, reason: null, chains: list };
}
