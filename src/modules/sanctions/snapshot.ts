// The OFAC SDN snapshot shipped in data/sanctions: loaded as the first list when a database has none, so a fresh
// install screens offline from its first start instead of failing closed until someone imports the official file.
// Any import or refresh of an official file replaces it (a snapshot never blocks an import, whatever the dates).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../platform/db/types.js';
import { EVM_ADDRESS, type SdnEntry } from './parse/index.js';
import type { ListRow, SanctionsRepo } from './repo.js';

export const SNAPSHOT_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../data/sanctions/ofac-sdn-evm-addresses-2024-09-27.txt',
);
export const SNAPSHOT_IMPORTER = 'snapshot';

export interface Snapshot {
  publishedAt: Date;
  entries: SdnEntry[];
  sha256: string;
  bytes: number;
  fileName: string;
}

/** Reads the snapshot: `# key: value` header lines (`published` is required), then one address per line. */
export function readSnapshot(file = SNAPSHOT_FILE): Snapshot {
  const text = readFileSync(file, 'utf8');
  let publishedAt: Date | null = null;
  const seen = new Map<string, SdnEntry>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#')) {
      const m = /^#\s*published:\s*(\d{4}-\d{2}-\d{2})\s*$/.exec(line);
      if (m) publishedAt = new Date(`${m[1]}T00:00:00Z`);
      continue;
    }
    if (!EVM_ADDRESS.test(line)) throw new Error(`${path.basename(file)}:${i + 1}: "${line}" is not an EVM address`);
    const address = line.toLowerCase();
    // The snapshot carries addresses only: no entity name, so results from it name none.
    if (!seen.has(address)) seen.set(address, { address, entityNames: [], currencies: ['ETH'], sdnIds: [] });
  }
  if (!publishedAt || Number.isNaN(publishedAt.getTime()))
    throw new Error(`${path.basename(file)}: no "# published: YYYY-MM-DD" header line`);
  return {
    publishedAt,
    entries: [...seen.values()],
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes: Buffer.byteLength(text),
    fileName: path.basename(file),
  };
}

/**
 * Loads the snapshot as the list in force when the database has no list at all. Safe with several instances
 * starting together: the import lock serializes them and only the first finds the table empty.
 */
export async function loadSnapshotIfEmpty(db: Db, repo: SanctionsRepo, file = SNAPSHOT_FILE): Promise<ListRow | null> {
  if ((await repo.latestVersion()) > 0) return null;
  const snap = readSnapshot(file);
  return db.tx(async (q) => {
    await repo.lockImports(q);
    if (await repo.latest(q)) return null;
    const list = await repo.insertList(q, {
      format: 'snapshot',
      publishedAt: snap.publishedAt,
      entryCount: snap.entries.length,
      fileSha256: snap.sha256,
      fileBytes: snap.bytes,
      fileName: snap.fileName,
      importedBy: SNAPSHOT_IMPORTER,
    });
    await repo.insertEntries(q, list.id, snap.entries);
    return list;
  });
}
