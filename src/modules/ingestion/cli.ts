// `credence ingest`: bulk import of an ethereum-etl export directory, or a JSON-RPC sync of given wallets.
// Runs in the app its caller boots (src/cli/ingest.ts) on the configured database, so imported wallets are rescored.
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { Config } from '../../platform/config.js';
import type { AppContext } from '../../platform/context.js';
import { createIngestionRepo } from './repo.js';
import { EtlFieldError, importEthereumEtl, type EtlImportResult, type ProgressSink } from './etl/import.js';
import type { PriceReader } from './pricing/index.js';
import type { IngestionEngine } from './service.js';

/** Wallets rescored together after an import (one features statement and one transaction each). */
const RESCORE_CHUNK = 100;
/** Chunks rescored at once on a server: the next chunk's features statement runs while this process scores the last
 *  one and the server stores another (PGlite runs one statement at a time: one chunk). */
const RESCORE_IN_FLIGHT = 4;

const USAGE = `usage:
  credence ingest --format ethereum-etl [--chain 1] [--no-score] <dir>
  credence ingest --wallet <address> [--wallet <address> ...]`;

/** What the command needs of the app it runs in. */
export interface IngestApp {
  ctx: AppContext;
  ready(): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
}

/** Runs the command in the app `boot` builds from these settings (after the arguments are checked); returns the
 *  process exit code. */
export async function runIngest(args: string[], config: Config, boot: (config: Config) => Promise<IngestApp>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      chain: { type: 'string', default: '1' },
      'no-score': { type: 'boolean', default: false },
      wallet: { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (!values.wallet?.length && (values.format !== 'ethereum-etl' || positionals.length !== 1))) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const chainId = Number(values.chain);
  if (!Number.isInteger(chainId) || chainId < 1) throw new Error(`--chain must be a chain id, got "${values.chain}"`);

  // no workers; quiet logs so the progress bars stay readable
  const app = await boot({ ...config, roles: [], logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
  await app.ready();
  try {
    if (values.wallet?.length) return await syncWallets(app.ctx, values.wallet);
    return await importDir(app.ctx, positionals[0], chainId, !values['no-score']);
  } finally {
    await app.close();
  }
}

/** `--wallet`: each wallet synced on every configured chain, a line per chain. */
async function syncWallets(ctx: AppContext, wallets: string[]): Promise<number> {
  const engine = ctx.services.ingestion as IngestionEngine;
  if (!engine.chains.length)
    throw new Error('no chain source configured: set CREDENCE_RPC_URL_<chainId> or CREDENCE_EXPLORER_API_URL and _KEY');
  let incomplete = 0;
  for (const w of wallets) {
    const results = await engine.syncWallet(w);
    for (const r of results) {
      if (!r.complete) incomplete++;
      console.log(`${w} chain ${r.chainId}: ${r.newRecords} new records, synced to block ${r.head}${r.complete ? '' : ' (incomplete)'}`);
    }
    // a chain whose sync failed has no result (its error is logged and kept in wallet_sync.last_error)
    const failed = engine.chains.filter((c) => !results.some((r) => r.chainId === c));
    for (const c of failed) console.log(`${w} chain ${c}: failed (see wallet_sync.last_error); the next sync resumes from the cursor`);
    if (failed.length) return 1;
  }
  // a chain that failed outright throws (exit 1); one stopped short (shutdown) is reported and exits 3
  return incomplete ? 3 : 0;
}

/** Progress bars on a terminal; plain lines when output goes to a file or a pipe. */
function progressBars(): { bars: cliProgress.MultiBar; progress: ProgressSink } {
  const tty = process.stdout.isTTY === true;
  const bars = new cliProgress.MultiBar(
    { clearOnComplete: false, hideCursor: true, format: ' {bar} {percentage}% | {value}/{total} | {label}' },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | null = null;
  let current = { label: '', total: 0, done: 0 };
  const progress: ProgressSink = {
    start(label, total, done) {
      current = { label, total, done };
      if (tty) bar = bars.create(total, done, { label });
    },
    update(done) {
      current.done = done;
      bar?.update(done);
    },
    stop() {
      bar?.stop();
      if (!tty) console.log(`${current.label}: ${current.done}/${current.total}`);
    },
  };
  return { bars, progress };
}

/** `--format ethereum-etl <dir>`: the import, then (unless --no-score) the wallets it touched rescored. */
async function importDir(ctx: AppContext, dir: string, chainId: number, score: boolean): Promise<number> {
  const { bars, progress } = progressBars();
  const started = Date.now();
  // with CREDENCE_RPC_URL_<chain> set, non-stable amounts are valued by the chain's oracle over that endpoint
  const prices = (ctx.services.ingestion as IngestionEngine | undefined)?.priceReader(chainId);
  const result = await importEthereumEtl({ db: ctx.db, repo: createIngestionRepo(ctx.db) }, dir, {
    chainId,
    progress,
    prices,
  }).catch((e: unknown) => {
    // a value the export cannot hold exactly: one clear line naming file, line and field, not a stack trace
    if (e instanceof EtlFieldError) {
      bars.stop();
      console.error(`credence ingest: ${e.message}`);
      return null;
    }
    throw e;
  });
  if (!result) return 1;
  const scoring = ctx.services.scoring;
  if (scoring && score && result.wallets.size)
    await rescore(scoring, [...result.wallets], progress, ctx.db.kind === 'postgres' ? RESCORE_IN_FLIGHT : 1);
  bars.stop();
  report(result, prices, started);
  return 0;
}

/** After the load, in chunks: features are read one statement per chunk and each chunk is stored in one
 *  transaction (the scoring service's bulk path), instead of a statement and a transaction per wallet. */
async function rescore(
  scoring: NonNullable<AppContext['services']['scoring']>,
  wallets: string[],
  progress: ProgressSink,
  inFlight: number,
) {
  progress.start('rescoring wallets', wallets.length, 0);
  // (recomputeMany is the scoring service's own; its public contract has only recompute, the fallback)
  const bulk = scoring as { recomputeMany?: (addresses: string[], cause: string) => Promise<unknown> };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < wallets.length) {
      const chunk = wallets.slice(next, (next += RESCORE_CHUNK));
      if (bulk.recomputeMany) await bulk.recomputeMany(chunk, 'ingestion');
      else for (const w of chunk) await scoring.recompute(w, 'ingestion');
      progress.update((done += chunk.length));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  progress.stop();
}

/** The import's summary: a line per file, the totals, oracle calls and what was left out as not evidence. */
function report(result: EtlImportResult, prices: PriceReader | undefined, started: number): void {
  for (const f of result.files)
    console.log(
      `${f.kind.padEnd(15)} ${f.file}: ${f.skipped ? 'already imported' : `${f.rows} rows${f.resumedAt ? ` (resumed at ${f.resumedAt})` : ''}`}`,
    );
  console.log(
    `${result.records} new activity records for ${result.wallets.size} wallets in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (result.recordsWithoutTime ? ` (${result.recordsWithoutTime} without a block time)` : ''),
  );
  const d = result.dropped;
  if (prices?.stats.calls)
    console.log(
      `oracle prices: ${prices.stats.calls} eth_call (${prices.stats.priced} priced, ${prices.stats.unpriced} without a price, ${prices.stats.noState} without state at the block)`,
    );
  if (d.unpinned + d.unverifiedPool + d.unlistedPool)
    console.log(
      `not evidence (left out, never scored): ${d.unpinned} logs from contracts outside the registry, ${d.unverifiedPool} swaps in pools not derived from a Uniswap factory, ${d.unlistedPool} swaps in pools of tokens outside the allowlist`,
    );
}
