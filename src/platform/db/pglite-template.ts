// The embedded database's start-up settings and its initdb template. PGlite runs initdb (a second WebAssembly
// instance, ~6 s of CPU) for every new data directory; the build (scripts/build.mjs) runs it once and keeps the
// result as a tarball beside the compiled code, and a new data directory (or an in-memory database) starts from a
// copy of it, which is what initdb would have written: the same PGlite, the same parameters.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Kept in dist/ so the image, which carries dist/ and no sources, has it too. */
export const TEMPLATE_FILE = path.join(ROOT, 'dist', 'pglite-template.tar.gz');

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

/** The initdb template when the build made one with this PGlite, else undefined (PGlite then runs initdb). */
export function initdbTemplate(file = TEMPLATE_FILE): Blob | undefined {
  try {
    if (readFileSync(`${file}.version`, 'utf8').trim() !== pgliteVersion()) return undefined;
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
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
