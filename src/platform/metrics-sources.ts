// What operators watch besides HTTP: score updates, ingestion lag per chain, the webhook outbox, the proof queue and
// the age of the sanctions list. Read at scrape time with one small SQL query each (their tables' indexes cover
// them), so nothing is computed between scrapes; a table a deployment lacks only leaves its gauge empty.
import type { AppContext } from './context.js';
import type { Metrics } from './metrics.js';
import { SCORE_UPDATED } from '../modules/scoring/contracts.js';

const num = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));

export function registerDomainMetrics(metrics: Metrics, ctx: AppContext) {
  const db = ctx.db;
  // counted where they were computed: with Redis every instance also hears the others' events, and a sum over the
  // instances must not count one change several times
  const updates = metrics.counter(
    'credence_score_updates_total',
    'Score changes computed on this instance and published (score.updated), by category.',
    ['category'],
  );
  ctx.bus.subscribe<{ category?: string }>(
    SCORE_UPDATED,
    (c) => {
      updates.inc({ category: c.category ?? 'unknown' });
    },
    { localOnly: true },
  );

  metrics.gauge(
    'credence_ingestion_lag_seconds',
    'Per chain: seconds since the least recently synced tracked wallet was synced (how stale the oldest evidence is).',
    ['chain'],
    async () => {
      const rows = await db.query<{ chain_id: number; lag: string | null }>(
        `SELECT chain_id, EXTRACT(EPOCH FROM now() - min(last_synced_at)) AS lag FROM wallet_sync GROUP BY chain_id`,
      );
      return rows.map((r) => ({ labels: { chain: r.chain_id }, value: num(r.lag) }));
    },
  );
  metrics.gauge('credence_ingestion_synced_block', 'Per chain: the highest block a wallet sync has read up to.', ['chain'], async () => {
    const rows = await db.query<{ chain_id: number; block: string | null }>(
      `SELECT chain_id, max(last_block) AS block FROM wallet_sync GROUP BY chain_id`,
    );
    return rows.map((r) => ({ labels: { chain: r.chain_id }, value: num(r.block) }));
  });

  // One query feeds both outbox gauges; the second reads what the first fetched in the same scrape.
  let outbox: Promise<{ depth: number; age: number }> | null = null;
  const readOutbox = () =>
    (outbox ??= db
      .query<{ depth: string; age: string | null }>(
        `SELECT count(*) AS depth, EXTRACT(EPOCH FROM now() - min(created_at)) AS age FROM webhook_deliveries WHERE status = 'pending'`,
      )
      .then((r) => ({ depth: num(r[0]?.depth), age: num(r[0]?.age ?? 0) }))
      .finally(() => setTimeout(() => (outbox = null), 1000).unref()));
  metrics.gauge('credence_webhook_outbox_depth', 'Webhook deliveries waiting in the outbox (pending, including retries).', [], async () => [
    { value: (await readOutbox()).depth },
  ]);
  metrics.gauge('credence_webhook_outbox_oldest_age_seconds', 'Age of the oldest pending webhook delivery (0 when none).', [], async () => [
    { value: (await readOutbox()).age },
  ]);

  metrics.gauge('credence_proof_queue', 'Proofs and verifications running and waiting, by pool and state.', ['pool', 'state'], async () => {
    const s = ctx.services.proofQueue();
    if (!s) return [];
    return (['provers', 'verifiers'] as const).flatMap((pool) => [
      { labels: { pool, state: 'busy' }, value: s[pool].busy },
      { labels: { pool, state: 'queued' }, value: s[pool].queued },
      { labels: { pool, state: 'threads' }, value: s[pool].threads },
    ]);
  });

  metrics.gauge(
    'credence_sanctions_list_age_seconds',
    'Age of the sanctions list in force: since its publication (basis=published) and since it was loaded (basis=imported).',
    ['basis'],
    async () => {
      const r = await db.query<{ published: string | null; imported: string | null }>(
        `SELECT EXTRACT(EPOCH FROM now() - published_at) AS published, EXTRACT(EPOCH FROM now() - imported_at) AS imported FROM sanctions_lists ORDER BY version DESC LIMIT 1`,
      );
      const row = r[0];
      return row
        ? [
            { labels: { basis: 'published' }, value: num(row.published) },
            { labels: { basis: 'imported' }, value: num(row.imported) },
          ]
        : [];
    },
  );

  // 1 while the list in force (this instance's, in memory) is older than CREDENCE_SANCTIONS_MAX_AGE_DAYS: alert on it
  metrics.gauge(
    'credence_sanctions_list_stale',
    'Whether the sanctions list in force was published more than CREDENCE_SANCTIONS_MAX_AGE_DAYS days ago (1) or not (0); absent without a list. max_age_days labels the setting.',
    ['max_age_days'],
    async () => {
      const publishedAt = ctx.services.sanctions.status('0x0000000000000000000000000000000000000000').listPublishedAt;
      if (!publishedAt) return [];
      const maxAgeDays = ctx.config.sanctionsMaxAgeDays;
      return [{ labels: { max_age_days: maxAgeDays }, value: Date.now() - publishedAt.getTime() >= (maxAgeDays + 1) * 86_400_000 ? 1 : 0 }];
    },
  );
}

/** The PostgreSQL pool (absent on PGlite): what to watch in a database outage or failover. */
export function registerDatabaseMetrics(metrics: Metrics, ctx: AppContext) {
  const { db } = ctx;
  if (!db.pool || !db.onConnectionLost) return;
  const pool = db.pool.bind(db);
  metrics.gauge(
    'credence_db_pool_connections',
    'PostgreSQL pool of this instance: connections open (open), idle in the pool (idle), and callers waiting for one (waiting).',
    ['state'],
    async () => {
      const p = pool();
      return [
        { labels: { state: 'open' }, value: p.total },
        { labels: { state: 'idle' }, value: p.idle },
        { labels: { state: 'waiting' }, value: p.waiting },
      ];
    },
  );
  const lost = metrics.counter(
    'credence_db_connections_lost_total',
    'PostgreSQL connections that ended under this instance (server restart, failover, network cut, pg_terminate_backend); each was discarded and replaced on demand.',
  );
  ctx.onClose(db.onConnectionLost(() => lost.inc()));
}
