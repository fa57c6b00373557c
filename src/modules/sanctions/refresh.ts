// Scheduled refresh from CREDENCE_SANCTIONS_URL (the official sdn_advanced.xml or sdn.csv): downloads and imports
// the file every CREDENCE_SANCTIONS_REFRESH_HOURS. A file identical to the list in force changes nothing (same
// sha256, or 304 to a conditional request), so several worker instances may run it side by side.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ImportResult, Log, SanctionsScreening } from './service.js';
import { isUnavailable } from '../../platform/db/unavailable.js';

const RETRY_MS = 15 * 60_000;
/** An import cut by a database outage is tried again sooner: the file was fine, the database was away. */
const RETRY_AFTER_OUTAGE_MS = 60_000;
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

export interface RefreshOptions {
  url: string;
  intervalHours: number;
  screening: SanctionsScreening;
  log: Log;
}

/** One download and import. `validators` carries ETag/Last-Modified between runs for conditional requests. */
export async function refreshFromUrl(
  url: string,
  screening: SanctionsScreening,
  opts: { signal?: AbortSignal; validators?: { etag?: string; lastModified?: string } } = {},
): Promise<ImportResult | 'not_modified'> {
  const headers: Record<string, string> = { 'user-agent': 'credence-sanctions-refresh' };
  const v = opts.validators;
  if (v?.etag) headers['if-none-match'] = v.etag;
  if (v?.lastModified) headers['if-modified-since'] = v.lastModified;
  const signals = [AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), ...(opts.signal ? [opts.signal] : [])];
  const res = await fetch(url, { headers, signal: AbortSignal.any(signals), redirect: 'follow' });
  if (res.status === 304) return 'not_modified';
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`GET ${url} answered ${res.status}`);
  }
  const lastModified = res.headers.get('last-modified');
  const published = lastModified ? new Date(lastModified) : null;
  let fileName = new URL(res.url || url).pathname.split('/').pop() || null;
  // sdn.csv's remarks overflow into sdn_comments.csv, published next to it (small: read whole). A server without it
  // (404) gives the list as sdn.csv alone.
  let comments: Buffer | null = null;
  const commentsUrl = siblingCommentsUrl(url);
  if (commentsUrl) {
    const c = await fetch(commentsUrl, {
      headers: { 'user-agent': headers['user-agent'] },
      signal: AbortSignal.any(signals),
      redirect: 'follow',
    });
    if (c.ok) {
      comments = Buffer.from(await c.arrayBuffer());
      fileName = `${fileName} + ${new URL(commentsUrl).pathname.split('/').pop()}`;
    } else {
      await c.body?.cancel().catch(() => undefined);
      if (c.status !== 404) {
        await res.body.cancel().catch(() => undefined);
        throw new Error(`GET ${commentsUrl} answered ${c.status}`);
      }
    }
  }
  const result = await screening.importList({
    source: Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>),
    comments: comments ? Readable.from([comments]) : null,
    fileName,
    // sdn.csv carries no date: the server's Last-Modified is the best available.
    publishedAt: published && !Number.isNaN(published.getTime()) ? published : null,
    importedBy: `refresh:${url}`,
  });
  if (v) {
    v.etag = res.headers.get('etag') ?? undefined;
    v.lastModified = lastModified ?? undefined;
  }
  return result;
}

/** .../sdn.csv -> .../sdn_comments.csv (same case); null for other files. */
export function siblingCommentsUrl(url: string): string | null {
  const u = new URL(url);
  const m = /(^|\/)(sdn)(\.csv)$/i.exec(u.pathname);
  if (!m) return null;
  const upper = m[2] === 'SDN';
  u.pathname =
    u.pathname.slice(0, u.pathname.length - 'sdn.csv'.length) + (upper ? 'SDN_COMMENTS' : 'sdn_comments') + (upper ? '.CSV' : '.csv');
  return u.toString();
}

export function createRefreshWorker(o: RefreshOptions) {
  const intervalMs = o.intervalHours * 3_600_000;
  const validators: { etag?: string; lastModified?: string } = {};
  let timer: NodeJS.Timeout | null = null;
  let abort: AbortController | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = run().finally(() => {
        running = null;
      });
    }, ms);
    timer.unref();
  };

  async function run() {
    abort = new AbortController();
    try {
      const r = await refreshFromUrl(o.url, o.screening, { signal: abort.signal, validators });
      o.log.info(
        { url: o.url, result: r === 'not_modified' ? r : r.status, version: r === 'not_modified' ? undefined : r.list.version },
        'sanctions list refresh done',
      );
      schedule(intervalMs);
    } catch (err) {
      if (stopped) return;
      o.log.error({ err, url: o.url }, 'sanctions list refresh failed; the list in force stays');
      schedule(Math.min(isUnavailable(err) ? RETRY_AFTER_OUTAGE_MS : RETRY_MS, intervalMs));
    } finally {
      abort = null;
    }
  }

  return {
    name: 'sanctions-refresh',
    async start() {
      stopped = false;
      // Due now when there is no list, only the shipped snapshot, or the newest import is older than the interval.
      try {
        const latest = await o.screening.repo.latest();
        schedule(Math.max(0, latest && latest.format !== 'snapshot' ? latest.importedAt.getTime() + intervalMs - Date.now() : 0));
      } catch (err) {
        o.log.error({ err }, 'sanctions refresh could not read the list in force; trying again later');
        schedule(Math.min(isUnavailable(err) ? RETRY_AFTER_OUTAGE_MS : RETRY_MS, intervalMs));
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      abort?.abort();
      await running;
    },
  };
}
