// Sanctions screening: imports OFAC SDN files as versioned lists and answers lookups from an in-memory map of the
// list in force (O(1), no database on the request path). Every instance keeps its map current: it reloads after
// its own imports, on the `sanctions.list.imported` event (other instances, through Redis when configured) and by
// polling the newest version (imports made by the CLI reach a server within the poll interval).
import type { Db } from '../../platform/db/types.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { SanctionsService } from '../scoring/contracts.js';
import { parseSanctionsFile, readSdnComments, SanctionsFileError, type ByteSource, type ListFormat } from './parse/index.js';
import { createSanctionsRepo, type ListRow, type SanctionsRepo } from './repo.js';

export const SOURCE = 'OFAC SDN List';
export const LIST_IMPORTED = 'sanctions.list.imported';

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ImportInput {
  source: ByteSource;
  /** sdn_comments.csv, the overflow of sdn.csv's remarks (ignored for the advanced XML). */
  comments?: ByteSource | null;
  fileName?: string | null;
  /** For files that carry no date (sdn.csv); ignored when the file has its own (advanced XML DateOfIssue). */
  publishedAt?: Date | null;
  importedBy: string;
  /** Accept a list published before the one in force, or one with no EVM address (and, as confirm, one dropping most entries). */
  force?: boolean;
  /** Accept a list that drops most entries of the list in force (refused without it: a truncated or wrong file). */
  confirm?: boolean;
  format?: ListFormat;
  maxBytes?: number;
}

export interface ImportResult {
  status: 'imported' | 'unchanged';
  list: ListRow;
}

/** A list that would replace a newer one (without force), or drop most of the list in force (without confirm). */
export class SanctionsImportRefused extends Error {}

/** A replacement dropping more than this share of the entries in force needs confirm (a 1-entry file once replaced 152). */
export const MAX_UNCONFIRMED_DROP = 0.5;
/** ... and at least this many entries: replacing a handful of entries (a test or private list) is not suspicious. */
export const MIN_CONFIRMED_DROP = 10;
export { stalenessOf } from './staleness.js';

/** snapshot: the file shipped with the code (data/sanctions); import: an official file imported or refreshed. */
export type ListSource = 'snapshot' | 'import';

interface Loaded {
  listId: string;
  version: number;
  publishedAt: Date;
  source: ListSource;
  names: Map<string, string>;
}

export interface Screening {
  walletAddress: string;
  sanctioned: boolean;
  entityName: string | null;
  listPublishedAt: Date;
  listVersion: number;
  listSource: ListSource;
}

export function createSanctionsScreening(deps: { db: Db; bus: EventBus; log: Log; repo?: SanctionsRepo }) {
  const repo = deps.repo ?? createSanctionsRepo(deps.db);
  let current: Loaded | null = null;
  let loading: Promise<void> | null = null;
  const listeners: ((version: number) => void)[] = [];

  async function load() {
    const latest = await repo.latest();
    if (!latest || (current && current.version >= latest.version)) return;
    const rows = await repo.entries(latest.id);
    const names = new Map<string, string>();
    for (const r of rows) names.set(r.address, r.entityName);
    // A slower concurrent load of an older version must not replace a newer map.
    if (current && current.version >= latest.version) return;
    current = {
      listId: latest.id,
      version: latest.version,
      publishedAt: latest.publishedAt,
      source: latest.format === 'snapshot' ? 'snapshot' : 'import',
      names,
    };
    deps.log.info({ version: latest.version, entries: names.size, publishedAt: latest.publishedAt }, 'sanctions list loaded');
    for (const l of listeners) l(latest.version);
  }

  /** Loads the newest list if this instance does not hold it yet; loads run one at a time. */
  async function reload(): Promise<void> {
    while (loading) await loading.catch(() => undefined);
    loading = load().finally(() => {
      loading = null;
    });
    return loading;
  }

  async function importList(input: ImportInput): Promise<ImportResult> {
    const comments = input.comments ? await readSdnComments(input.comments, input.maxBytes) : undefined;
    const parsed = await parseSanctionsFile(input.source, { format: input.format, maxBytes: input.maxBytes, comments });
    if (parsed.entries.size === 0 && !input.force) {
      throw new SanctionsFileError(
        'the file lists no EVM (0x) digital currency address; this is unlikely for a real SDN list (use force to import it anyway)',
      );
    }
    const publishedAt = parsed.publishedAt ?? input.publishedAt ?? new Date();
    const result = await deps.db.tx(async (q): Promise<ImportResult> => {
      await repo.lockImports(q);
      const latest = await repo.latest(q);
      if (latest && latest.fileSha256 === parsed.sha256) return { status: 'unchanged', list: latest };
      // The shipped snapshot is a stopgap: any official file replaces it, whatever its date.
      if (latest && latest.format !== 'snapshot' && publishedAt < latest.publishedAt && !input.force) {
        throw new SanctionsImportRefused(
          `this list was published ${publishedAt.toISOString().slice(0, 10)}, before the list in force (version ${latest.version}, published ${latest.publishedAt.toISOString().slice(0, 10)}); use force to import it anyway`,
        );
      }
      // A file that would drop most of the list in force is more likely truncated or wrong than a real delisting.
      if (latest && !input.confirm && !input.force) {
        const inForce = await repo.entries(latest.id, q);
        const dropped = inForce.filter((e) => !parsed.entries.has(e.address)).length;
        if (dropped >= MIN_CONFIRMED_DROP && dropped > inForce.length * MAX_UNCONFIRMED_DROP) {
          throw new SanctionsImportRefused(
            `this file would drop ${dropped} of the ${inForce.length} entries of the list in force (version ${latest.version}, published ` +
              `${latest.publishedAt.toISOString().slice(0, 10)}), keeping ${inForce.length - dropped}; the file lists ${parsed.entries.size}. ` +
              'Nothing was imported. If that is intended, send it again with confirm=true (CLI: --confirm).',
          );
        }
      }
      const list = await repo.insertList(q, {
        format: parsed.format,
        publishedAt,
        entryCount: parsed.entries.size,
        fileSha256: parsed.sha256,
        fileBytes: parsed.bytes,
        fileName: input.fileName ?? null,
        importedBy: input.importedBy,
      });
      await repo.insertEntries(q, list.id, parsed.entries.values());
      return { status: 'imported', list };
    });
    if (result.status === 'imported') {
      deps.log.info(
        { version: result.list.version, entries: result.list.entryCount, format: result.list.format, by: input.importedBy },
        'sanctions list imported',
      );
      await reload();
      deps.bus.publish(LIST_IMPORTED, { listId: result.list.id, version: result.list.version });
    }
    return result;
  }

  const service: SanctionsService = {
    status(address) {
      const c = current;
      if (!c) return { sanctioned: null, entityName: null, listPublishedAt: null };
      const name = c.names.get(address.toLowerCase());
      return { sanctioned: name !== undefined, entityName: name || null, listPublishedAt: c.publishedAt };
    },
  };

  return {
    repo,
    service,
    reload,
    importList,
    /** Screens one address against the list in force; null when no list is loaded. */
    screen(address: string): Screening | null {
      const c = current;
      if (!c) return null;
      const name = c.names.get(address.toLowerCase());
      return {
        walletAddress: address,
        sanctioned: name !== undefined,
        entityName: name || null,
        listPublishedAt: c.publishedAt,
        listVersion: c.version,
        listSource: c.source,
      };
    },
    current(): { listId: string; version: number; publishedAt: Date; source: ListSource; entries: number } | null {
      const c = current;
      return c ? { listId: c.listId, version: c.version, publishedAt: c.publishedAt, source: c.source, entries: c.names.size } : null;
    },
    /** Called with the version each time a newer list is loaded into memory. */
    onLoaded(fn: (version: number) => void) {
      listeners.push(fn);
    },
    /** Keeps this instance current: the import event plus a poll of the newest version. Returns the stopper. */
    startSync(pollMs: number): () => void {
      const unsubscribe = deps.bus.subscribe<{ version: number }>(LIST_IMPORTED, async ({ version }) => {
        if (!current || current.version < version) await reload();
      });
      const timer = setInterval(() => {
        repo
          .latestVersion()
          .then((v) => (v > (current?.version ?? 0) ? reload() : undefined))
          .catch((err) => deps.log.warn({ err }, 'sanctions list poll failed'));
      }, pollMs);
      timer.unref();
      return () => {
        clearInterval(timer);
        unsubscribe();
      };
    },
  };
}

export type SanctionsScreening = ReturnType<typeof createSanctionsScreening>;
