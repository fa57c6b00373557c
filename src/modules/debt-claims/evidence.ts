// Checks a claim's evidence over the claim chain's configured JSON-RPC (CREDENCE_RPC_URL_<chainId>): the transaction
// must exist and involve both parties (sent by one to the other, or carrying a Transfer log between them), and the
// creditor must have on-chain history of its own (transactions sent before the evidence). Without an RPC for the
// chain the evidence is "unverifiable". Network failures throw, so the caller retries later.
import { createPublicClient, http, webSocket, type PublicClient } from 'viem';
import type { IngestionService } from '../scoring/contracts.js';

/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 transfers share it. */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export type EvidenceStatus = 'found' | 'not_found' | 'unverifiable';

export interface EvidenceResult {
  evidence: EvidenceStatus;
  /** null when nothing could tell (no RPC and no ingested history) */
  creditorHasHistory: boolean | null;
}

export interface EvidenceInput {
  chainId: number;
  hash: string;
  creditor: string;
  debtor: string;
}

export interface EvidenceChecker {
  check(c: EvidenceInput): Promise<EvidenceResult>;
  /** Closes WebSocket connections (HTTP holds none). */
  close(): Promise<void>;
}

interface RpcTx {
  from: string;
  to: string | null;
  blockNumber: string | null;
}
interface RpcReceipt {
  status?: string;
  logs: { topics: string[] }[];
}

const topicAddress = (t: string | undefined) => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);

/** Whether the transaction is between the two parties, either way round. */
export function involvesBoth(tx: RpcTx, receipt: RpcReceipt | null, a: string, b: string): boolean {
  const pair = (x: string | null | undefined, y: string | null | undefined) =>
    !!x && !!y && ((x.toLowerCase() === a && y.toLowerCase() === b) || (x.toLowerCase() === b && y.toLowerCase() === a));
  if (pair(tx.from, tx.to)) return true;
  // A reverted transaction moved nothing.
  if (!receipt || receipt.status === '0x0') return false;
  return receipt.logs.some((l) => l.topics[0]?.toLowerCase() === TRANSFER_TOPIC && pair(topicAddress(l.topics[1]), topicAddress(l.topics[2])));
}

export function createEvidenceChecker(deps: {
  rpcUrls: Record<number, string>;
  /** Looked up at call time (the ingestion module may register later); its features count as history too. */
  ingestion: () => Pick<IngestionService, 'featuresFor'> | undefined;
  timeoutMs?: number;
}): EvidenceChecker {
  const clients = new Map<number, PublicClient>();
  function client(chainId: number): PublicClient | null {
    const url = deps.rpcUrls[chainId];
    if (!url) return null;
    let c = clients.get(chainId);
    if (!c) {
      const transport = url.startsWith('ws') ? webSocket(url, { retryCount: 0 }) : http(url, { retryCount: 0, timeout: deps.timeoutMs ?? 10_000 });
      c = createPublicClient({ transport });
      clients.set(chainId, c);
    }
    return c;
  }
  const req = <T>(c: PublicClient, method: string, params: unknown[]) => c.request({ method: method as 'eth_chainId', params: params as never }) as Promise<T>;

  async function ingestedHistory(creditor: string): Promise<boolean | null> {
    const ing = deps.ingestion();
    if (!ing) return null;
    const f = await ing.featuresFor(creditor);
    return f.txCount > 0 || f.evidenceCount > 0 ? true : null;
  }

  return {
    async close() {
      for (const c of clients.values()) {
        const t = c.transport as { getRpcClient?: () => Promise<{ close(): void }> };
        if (t.getRpcClient) (await t.getRpcClient()).close();
      }
      clients.clear();
    },

    async check({ chainId, hash, creditor, debtor }) {
      const c = client(chainId);
      if (!c) return { evidence: 'unverifiable', creditorHasHistory: await ingestedHistory(creditor) };
      const tx = await req<RpcTx | null>(c, 'eth_getTransactionByHash', [hash]);
      if (!tx || !tx.blockNumber) {
        const nonce = Number(await req<string>(c, 'eth_getTransactionCount', [creditor, 'latest']));
        return { evidence: 'not_found', creditorHasHistory: nonce > 0 || (await ingestedHistory(creditor)) === true };
      }
      const receipt = await req<RpcReceipt | null>(c, 'eth_getTransactionReceipt', [hash]);
      const found = involvesBoth(tx, receipt, creditor, debtor);
      // History of its own: transactions the creditor sent before the evidence's block. Nodes without that block's
      // state (not archive) get the latest nonce less the evidence transaction itself.
      const block = Number(tx.blockNumber);
      let before: number;
      try {
        before = block > 0 ? Number(await req<string>(c, 'eth_getTransactionCount', [creditor, `0x${(block - 1).toString(16)}`])) : 0;
      } catch {
        const latest = Number(await req<string>(c, 'eth_getTransactionCount', [creditor, 'latest']));
        before = latest - (tx.from.toLowerCase() === creditor ? 1 : 0);
      }
      return { evidence: found ? 'found' : 'not_found', creditorHasHistory: before > 0 };
    },
  };
}
