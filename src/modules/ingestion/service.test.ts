// The ingestion service's read path: a wallet whose syncs keep failing is backed off for reads as well as for the
// refresh worker, so a provider that always errors never turns every read into a new sync.
import { afterAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { simulateChain } from '../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../../../test/fakes/rpc-provider.js';
import type { Db } from '../../platform/db/types.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { createIngestionService } from './service.js';
import { pinnedContracts } from './registry/index.js';

const dbs: Db[] = [];
const providers: FakeProvider[] = [];
afterAll(async () => {
  for (const p of providers) await p.close();
  for (const d of dbs) await d.close();
});

const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };

describe('ensureFresh and the backoff of a failing wallet', () => {
  it('a never-synced wallet whose sync failed is not synced again by reads before its retry_at', async () => {
    const wallet = randomAddress();
    const provider = await startFakeProvider(simulateChain({ wallet, events: 0 }), 'down');
    providers.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const repo = createIngestionRepo(db);
    const eng = createIngestionService({
      db,
      repo,
      sources: [createRpcSource(1, provider.url)],
      log: quiet,
      concurrency: 2,
      ingestOnRead: true,
      sync: { useFinalized: true },
      pinned: (id) => pinnedContracts(id),
      backoff: { baseSeconds: 60, maxSeconds: 3600 },
    });
    try {
      // the first read tracks the wallet and starts a sync, which fails and backs the wallet off
      await eng.ensureFresh(wallet, 5_000);
      const afterFirst = provider.requests;
      expect(afterFirst).toBeGreaterThan(0);
      const [row] = await db.query<{ failures: number; backing_off: boolean; last_synced_at: Date | null }>(
        'SELECT failures, retry_at > now() AS backing_off, last_synced_at FROM tracked_wallets WHERE wallet = $1',
        [wallet.toLowerCase()],
      );
      expect(row).toMatchObject({ failures: 1, backing_off: true, last_synced_at: null });

      // reads in a row: served from the store, no new sync (nothing asked of the provider)
      await eng.ensureFresh(wallet, 5_000);
      await eng.ensureFresh(wallet.toUpperCase().replace('0X', '0x'), 5_000);
      expect(provider.requests).toBe(afterFirst);
      expect(eng.queued + eng.running).toBe(0);

      // once retry_at has passed, a read starts a sync again (which fails again and doubles the backoff)
      await db.query(`UPDATE tracked_wallets SET retry_at = now() - interval '1 second' WHERE wallet = $1`, [wallet.toLowerCase()]);
      await eng.ensureFresh(wallet, 5_000);
      expect(provider.requests).toBeGreaterThan(afterFirst);
      const [again] = await db.query<{ failures: number; secs: number }>(
        'SELECT failures, extract(epoch FROM retry_at - now())::float8 AS secs FROM tracked_wallets WHERE wallet = $1',
        [wallet.toLowerCase()],
      );
      expect(again.failures).toBe(2);
      expect(again.secs).toBeGreaterThan(60);
    } finally {
      await eng.stop();
    }
  }, 60_000);
});
