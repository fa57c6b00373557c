#!/usr/bin/env node
// Compiles src/ to dist/ (one JavaScript file per TypeScript file, same layout, so paths relative to the repository
// root such as ../../../migrations resolve the same from both). Runs at install (`prepare`), so `npm ci` then
// `npm start` serves compiled JavaScript instead of transpiling every module at each start.
// esbuild only strips types: type checking is `npm run typecheck` (CI and the image run it).
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const OUT = path.join(ROOT, 'dist');

/** Source files that ship: tests and test helpers stay out. */
function walk(dir, found = { ts: [], copy: [] }) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file, found);
    else if (/\.test\.ts$|test-helpers\.ts$|\.d\.ts$/.test(name)) continue;
    else if (name.endsWith('.ts')) found.ts.push(file);
    else if (/\.(mjs|json)$/.test(name)) found.copy.push(file);
  }
  return found;
}

const started = Date.now();
if (!existsSync(SRC)) {
  // an installed copy without sources (the image after its build stage): nothing to compile
  process.exit(0);
}
const { ts: all, copy } = walk(SRC);
// src/cli/sdk.ts re-exports the SDK from sdk/src (outside src/): bundled, so dist/ needs no build of sdk/
const BUNDLED = [path.join(SRC, 'cli', 'sdk.ts')];
const ts = all.filter((f) => !BUNDLED.includes(f));
// the PGlite initdb template (src/platform/db/pglite-template.ts) survives a rebuild: it changes only with PGlite
const TEMPLATE = path.join(OUT, 'pglite-template.tar.gz');
const MIGRATED = path.join(OUT, 'pglite-migrated.tar.gz');
const kept = [TEMPLATE, `${TEMPLATE}.version`, MIGRATED, `${MIGRATED}.version`]
  .filter((f) => existsSync(f))
  .map((f) => [f, readFileSync(f)]);
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: BUNDLED,
  outdir: path.join(OUT, 'cli'),
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// TypeBox ships ~250 ES modules (one per type builder), each resolved, read and compiled at every start of the
// server. They are bundled into dist/vendor/ (one module per entry point the sources import, sharing one chunk, so
// one copy of TypeBox), and the compiled files import them from there instead of from node_modules.
const VENDORED = { '@sinclair/typebox': 'typebox', '@sinclair/typebox/value': 'typebox-value' };
const VENDOR = path.join(OUT, 'vendor');
await build({
  entryPoints: Object.fromEntries(Object.entries(VENDORED).map(([spec, name]) => [name, spec])),
  absWorkingDir: ROOT,
  outdir: VENDOR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
const compiled = await build({
  entryPoints: ts,
  outdir: OUT,
  outbase: SRC,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
});
const vendoredImport = /((?:\bfrom|\bimport)\s*\(?\s*)"(@sinclair\/typebox(?:\/[\w-]+)?)"/g;
for (const out of compiled.outputFiles) {
  let text = out.text;
  if (out.path.endsWith('.js'))
    text = text.replace(vendoredImport, (_m, head, spec) => {
      if (!VENDORED[spec]) throw new Error(`${path.relative(ROOT, out.path)} imports ${spec}, which dist/vendor/ does not bundle`);
      const rel = path
        .relative(path.dirname(out.path), path.join(VENDOR, `${VENDORED[spec]}.js`))
        .split(path.sep)
        .join('/');
      return `${head}"${rel.startsWith('.') ? rel : `./${rel}`}"`;
    });
  mkdirSync(path.dirname(out.path), { recursive: true });
  writeFileSync(out.path, text);
}
for (const file of copy) {
  const dest = path.join(OUT, path.relative(SRC, file));
  mkdirSync(path.dirname(dest), { recursive: true });
  copyFileSync(file, dest);
}
for (const [file, content] of kept) writeFileSync(file, content);
{
  const t = Date.now();
  const { initdbTemplate, writeInitdbTemplate } = await import(pathToFileURL(path.join(OUT, 'platform', 'db', 'pglite-template.js')).href);
  if (!initdbTemplate(TEMPLATE)) {
    await writeInitdbTemplate(TEMPLATE);
    console.log(`made the embedded database's initdb template in ${Date.now() - t} ms`);
  }
  // the database as the migrations leave it, for a new data directory's first start (remade when a migration changes)
  const m = Date.now();
  const { migratedTemplateCurrent, writeMigratedTemplate } = await import(
    pathToFileURL(path.join(OUT, 'platform', 'db', 'pglite-template.js')).href
  );
  if (!migratedTemplateCurrent(MIGRATED)) {
    const { wrapPglite } = await import(pathToFileURL(path.join(OUT, 'platform', 'db', 'index.js')).href);
    const { migrate } = await import(pathToFileURL(path.join(OUT, 'platform', 'db', 'migrate.js')).href);
    await writeMigratedTemplate((db) => migrate(wrapPglite(db)), MIGRATED);
    console.log(`made the embedded database's migrated template in ${Date.now() - m} ms`);
  }
}
// bin/credence.mjs compares this stamp with the sources to tell a stale build from a current one
writeFileSync(path.join(OUT, '.build-stamp'), `${new Date().toISOString()}\n`);
console.log(`built ${ts.length} modules into dist/ in ${Date.now() - started} ms`);
