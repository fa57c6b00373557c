// The embedded database's start-up settings and its initdb template. PGlite runs initdb (a second WebAssembly
// instance, ~6 s of CPU) for every new data directory; the build (scripts/build.mjs) runs it once and keeps the
// result as a tarball beside the compiled code, and a new data directory (or an in-memory database) starts from a
// copy of it, which is what initdb would have written: the same PGlite, the same parameters. The build also keeps
// the database as the migrations leave it (the migrated template): a new data directory starts from that one when
// it was made from the migration files there are now, so its first start applies nothing.
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Kept in dist/ so the image, which carries dist/ and no sources, has it too. */
export const TEMPLATE_FILE = path.join(ROOT, 'dist', 'pglite-template.tar.gz');
/** initdb, then every migration; its .version names the migration files it holds (migrationsStamp). */
export const MIGRATED_TEMPLATE_FILE = path.join(ROOT, 'dist', 'pglite-migrated.tar.gz');
const MIGRATIONS = path.join(ROOT, 'migrations');

/**
 * shared_buffers: PostgreSQL's default 128 MB is allocated (and touched) inside PGlite's WebAssembly memory at
 * every start, the largest part of an idle instance's memory. One embedded session serving one process reads
 * through the OS page cache beyond it; 16 MB measured 120 MB less resident memory.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/** The installed PGlite's version: a template made by another version is not used. */
export function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The migrated template's version: this PGlite and a hash of every migration file's name and content. */
export function migrationsStamp(dir = MIGRATIONS): string {
  const hash = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((n) => /^\d{4}_[\w-]+\.sql$/.test(n))
    .sort())
    hash
      .update(`${f}\0`)
      .update(readFileSync(path.join(dir, f)))
      .update('\0');
  return `${pgliteVersion()} migrations:${hash.digest('hex')}`;
}

/** True when the build made the template with this PGlite (and, for the migrated one, these migrations). */
function templateCurrent(file: string, version = pgliteVersion()): boolean {
  try {
    return readFileSync(`${file}.version`, 'utf8').trim() === version;
  } catch {
    return false;
  }
}

/** The initdb template when the build made one with this PGlite, else undefined (PGlite then runs initdb). */
export function initdbTemplate(file = TEMPLATE_FILE): Blob | undefined {
  try {
    return templateCurrent(file) ? new Blob([readFileSync(file)]) : undefined;
  } catch {
    return undefined;
  }
}

/** A new data directory from the migrated template when it holds the current migrations, else the initdb one. */
export async function restoreTemplate(dir: string): Promise<boolean> {
  return (await restoreInitdbTemplate(dir, MIGRATED_TEMPLATE_FILE, migrationsStamp())) || restoreInitdbTemplate(dir);
}

/**
 * Writes the template's files into a new data directory `dir` (absent or empty), streamed: handing the tarball to
 * PGlite instead (loadDataDir) held it whole in memory, unpacked (40 MB), and wrote every file through the
 * WebAssembly file system. The files land in a sibling directory renamed into place at the end, so a start
 * interrupted halfway leaves no half-written database. False when there is no template for this PGlite.
 */
export async function restoreInitdbTemplate(dir: string, file = TEMPLATE_FILE, version = pgliteVersion()): Promise<boolean> {
  if (!templateCurrent(file, version) || !existsSync(file)) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false; // not new: PGlite decides (loadDataDir)
  const staging = `${dir}.restoring`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  let header: Buffer | null = null; // 512-byte header being gathered
  let headerFill = 0;
  let fd = -1;
  let left = 0; // bytes of the current entry still to come
  let pad = 0; // zero padding after it, to the next 512-byte block
  let ended = false;
  const startEntry = (h: Buffer) => {
    if (h.every((b) => b === 0)) {
      ended = true; // the archive's end marker
      return;
    }
    const field = (from: number, to: number) => h.subarray(from, to).toString('latin1').replace(/\0.*$/s, '');
    // PGlite's tar writer keeps times where ustar has its name prefix: names are the 100-byte field alone
    const name = field(0, 100).replace(/^\/+/, '');
    const size = parseInt(field(124, 136).trim() || '0', 8);
    const type = field(156, 157);
    const target = path.join(staging, name);
    if (!target.startsWith(staging + path.sep)) throw new Error(`initdb template: entry outside the directory: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '') {
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fd = openSync(target, 'w', 0o600);
    } else throw new Error(`initdb template: unexpected entry type ${type} (${name})`);
    left = size;
    pad = (512 - (size % 512)) % 512;
    if (fd >= 0 && left === 0) {
      closeSync(fd);
      fd = -1;
    }
  };
  try {
    // 1 MB chunks instead of the default 16 KB: about a third less CPU (fewer turns of the loop, fewer and larger writes)
    const chunks = createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      let at = 0;
      while (at < chunk.length && !ended) {
        if (left > 0) {
          const n = Math.min(left, chunk.length - at);
          if (fd >= 0) writeSync(fd, chunk, at, n);
          at += n;
          left -= n;
          if (left === 0 && fd >= 0) {
            closeSync(fd);
            fd = -1;
          }
        } else if (pad > 0) {
          const n = Math.min(pad, chunk.length - at);
          at += n;
          pad -= n;
        } else {
          header ??= Buffer.alloc(512);
          const n = Math.min(512 - headerFill, chunk.length - at);
          chunk.copy(header, headerFill, at, at + n);
          at += n;
          headerFill += n;
          if (headerFill === 512) {
            headerFill = 0;
            startEntry(header);
          }
        }
      }
      if (ended) break;
    }
    if (!ended || left > 0) throw new Error('initdb template: the archive ends early');
    if (!existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('initdb template: no PG_VERSION in the archive');
    if (existsSync(dir)) rmdirSync(dir);
    renameSync(staging, dir);
    return true;
  } finally {
    if (fd >= 0) closeSync(fd);
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Runs initdb once in memory and writes its data directory as the template (scripts/build.mjs). */
export async function writeInitdbTemplate(file = TEMPLATE_FILE): Promise<void> {
  const db = await PGlite.create();
  try {
    const blob = await db.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    writeFileSync(`${file}.version`, `${pgliteVersion()}\n`);
  } finally {
    await db.close();
  }
}

/** True when the migrated template holds the migration files there are now (scripts/build.mjs remakes it otherwise). */
export const migratedTemplateCurrent = (file = MIGRATED_TEMPLATE_FILE) => existsSync(file) && templateCurrent(file, migrationsStamp());

/**
 * Writes the migrated template (scripts/build.mjs): the initdb template with every migration applied by `migrate`
 * (platform/db/migrate.ts, passed in: it imports this module's neighbours).
 */
export async function writeMigratedTemplate(migrate: (db: PGlite) => Promise<unknown>, file = MIGRATED_TEMPLATE_FILE): Promise<void> {
  const stamp = migrationsStamp();
  const db = await PGlite.create({ startParams: PGLITE_START_PARAMS, loadDataDir: initdbTemplate() });
  try {
    await migrate(db);
    const blob = await db.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
    writeFileSync(`${file}.version`, `${stamp}\n`);
  } finally {
    await db.close();
  }
}
