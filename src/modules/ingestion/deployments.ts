// Contracts a wallet deployed with CREATE, found by their addresses (one per nonce) over JSON-RPC: looked for after
// the logs, in bounded batches with their own cursor (the nonce checked up to), so a busy sender's nonces never hold
// back its other evidence.
import type { Db } from '../../platform/db/types.js';
import { deploymentRecord, type ActivityRecord } from './decode.js';
import type { IngestionRepo } from './repo.js';
import type { ChainSource } from './rpc-source.js';

/** CREATE addresses of the wallet's nonces not checked yet, eth_getCode in batches; up to maxNonceScan nonces.
 * `complete` once every nonce up to the bound is checked, even when the wallet's nonce is past it (`capped`): the
 * nonces beyond the bound are deliberately not scanned, not pending (docs/ingestion.md, "Deployments"). */
export async function scanDeployments(
  db: Db,
  repo: IngestionRepo,
  source: ChainSource,
  wallet: string,
  head: number,
  account: { nonce: number; balance: string },
  checked: number,
  opts: { maxNonceScan: number; maxNoncesPerRun: number; signal?: AbortSignal },
) {
  const nonce = account.nonce;
  const target = Math.min(nonce, opts.maxNonceScan);
  const upto = Math.min(target, checked + opts.maxNoncesPerRun);
  const deployments: ActivityRecord[] = [];
  const BATCH = 500;
  let reached = checked;
  for (let n = checked; n < upto && !opts.signal?.aborted; n += BATCH) {
    const nonces = [...Array(Math.min(BATCH, upto - n)).keys()].map((i) => n + i);
    const addresses = nonces.map((i) => source.createAddress(wallet, i));
    const codes = await source.hasCodes(addresses, head);
    for (let i = 0; i < addresses.length; i++) {
      if (!codes[i]) continue;
      const block = await creationBlock(source, addresses[i], head);
      const t = (await source.blockTimes([block])).get(block)!;
      deployments.push(deploymentRecord(source.chainId, wallet, addresses[i], block, t, true));
    }
    reached = n + nonces.length;
  }
  const records = await db.tx(async (q) => {
    const changed = await repo.insertActivity(deployments, q);
    await repo.recordAccount(wallet, source.chainId, { nonce, balance: account.balance, deployNonceChecked: reached }, q);
    return changed.size ? deployments.length : 0;
  });
  return { records, complete: reached >= target, capped: nonce > opts.maxNonceScan };
}

/** First block at which the address has code (binary search; needs historical state). Falls back to the head
 * block on nodes that keep no history, so the deployment is still counted. */
async function creationBlock(source: ChainSource, address: string, head: number): Promise<number> {
  try {
    let a = 0;
    let b = head;
    if (await source.hasCode(address, a)) return a;
    while (b - a > 1) {
      const mid = Math.floor((a + b) / 2);
      if (await source.hasCode(address, mid)) b = mid;
      else a = mid;
    }
    return b;
  } catch {
    return head;
  }
}
