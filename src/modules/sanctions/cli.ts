// `credence sanctions import <file> | refresh | status`: list administration from the command line. Running servers
// pick an import up at once through Redis when REDIS_URL is set, else within their 30-second poll.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../../platform/config.js';
import { openDatabase } from '../../platform/db/index.js';
import { migrate } from '../../platform/db/migrate.js';
import { createEventBus } from '../../platform/events/bus.js';
import { refreshFromUrl } from './refresh.js';
import { createSanctionsScreening, type ImportResult, type Log } from './service.js';
import type { ListRow } from './repo.js';

const USAGE = `usage:
  credence sanctions import <file> [--published-at YYYY-MM-DD] [--comments sdn_comments.csv] [--confirm] [--force]
      import sdn_advanced.xml or sdn.csv as a new list version. sdn.csv carries no date: --published-at gives it,
      else the file's modification time is used. Its remarks overflow into sdn_comments.csv, read from --comments
      or from the same directory. A file that drops more than half (and at least 10) of the list in force is refused unless
      --confirm. --force accepts a list older than the one in force (and implies --confirm).
  credence sanctions refresh      download CREDENCE_SANCTIONS_URL now and import it if it changed
  credence sanctions status       the list in force and the recent imports`;

const quiet: Log = { info() {}, warn: (o, m) => console.warn(m ?? '', o), error: (o, m) => console.error(m ?? '', o) };

export async function runSanctionsCommand(args: string[], config: Config): Promise<void> {
  const [sub, ...rest] = args;
  if (!sub || !['import', 'refresh', 'status'].includes(sub)) {
    console.log(USAGE);
    process.exitCode = sub && sub !== 'help' ? 2 : 0;
    return;
  }
  let file: string | undefined;
  let publishedAtArg: string | null = null;
  let commentsFile: string | null = null;
  try {
    if (sub === 'import') {
      file = rest.find((a, i) => !a.startsWith('--') && rest[i - 1] !== '--published-at' && rest[i - 1] !== '--comments');
      if (!file) throw new UsageError('import needs a file');
      publishedAtArg = option(rest, '--published-at');
      commentsFile = option(rest, '--comments') ?? siblingComments(file);
    }
    if (sub === 'refresh' && !config.sanctionsUrl) throw new UsageError('CREDENCE_SANCTIONS_URL is not set');
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const db = await openDatabase(config.databaseUrl, config.dataDir);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  redis?.on('error', () => undefined);
  const bus = createEventBus({ instanceId: `cli-${randomUUID()}`, channel: `${config.redisPrefix}events`, redis });
  try {
    await migrate(db);
    const screening = createSanctionsScreening({ db, bus, log: quiet });
    if (sub === 'status') {
      printStatus(await screening.repo.recent(10));
    } else if (sub === 'import') {
      const at = publishedAtArg;
      const publishedAt = at ? new Date(at.length === 10 ? `${at}T00:00:00Z` : at) : statSync(file!).mtime;
      if (Number.isNaN(publishedAt.getTime())) throw new UsageError(`--published-at: "${at}" is not a date`);
      const started = Date.now();
      const r = await screening.importList({
        source: createReadStream(file!, { highWaterMark: 1 << 20 }),
        comments: commentsFile ? createReadStream(commentsFile) : null,
        fileName: commentsFile ? `${path.basename(file!)} + ${path.basename(commentsFile)}` : path.basename(file!),
        publishedAt,
        importedBy: 'cli',
        force: rest.includes('--force'),
        confirm: rest.includes('--confirm'),
      });
      printResult(r, Date.now() - started);
    } else {
      const started = Date.now();
      const r = await refreshFromUrl(config.sanctionsUrl!, screening);
      if (r === 'not_modified') console.log('not modified');
      else printResult(r, Date.now() - started);
    }
    // Let the publish reach Redis before disconnecting.
    if (redis) await redis.ping().catch(() => undefined);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      console.error(`credence sanctions ${sub}: ${(e as Error).message}`);
      process.exitCode = 1;
    }
  } finally {
    await bus.close();
    redis?.disconnect();
    await db.close();
  }
}

class UsageError extends Error {}

/** sdn_comments.csv next to an sdn.csv (any case), as OFAC publishes them together. */
function siblingComments(file: string): string | null {
  if (!/^sdn\.csv$/i.test(path.basename(file))) return null;
  const dir = path.dirname(file);
  const name = readdirSync(dir).find((f) => /^sdn_comments\.csv$/i.test(f));
  return name ? path.join(dir, name) : null;
}

function option(args: string[], name: string): string | null {
  const i = args.indexOf(name);
  if (i === -1) return null;
  const v = args[i + 1];
  if (!v || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return v;
}

function printResult(r: ImportResult, ms: number) {
  const l = r.list;
  if (r.status === 'unchanged')
    console.log(`unchanged: identical to version ${l.version} in force (sha256 ${l.fileSha256.slice(0, 16)}...)`);
  else console.log(`imported version ${l.version}: ${l.entryCount} addresses, ${l.format}, published ${day(l.publishedAt)}, in ${ms} ms`);
}

function printStatus(lists: ListRow[]) {
  if (!lists.length) {
    console.log('no sanctions list imported: screening answers 503 until one is');
    return;
  }
  console.log(`in force: version ${lists[0].version}, published ${day(lists[0].publishedAt)}, ${lists[0].entryCount} addresses\n`);
  console.log('version  published   addresses  format            imported                  by');
  for (const l of lists) {
    console.log(
      `${String(l.version).padEnd(9)}${day(l.publishedAt).padEnd(12)}${String(l.entryCount).padEnd(11)}${l.format.padEnd(18)}${l.importedAt.toISOString().padEnd(26)}${l.importedBy}`,
    );
  }
}

const day = (d: Date) => d.toISOString().slice(0, 10);
