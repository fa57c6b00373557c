#!/usr/bin/env node
// Entry point of the `credence` command. Runs the compiled JavaScript in dist/ (built at install by
// scripts/build.mjs) when it is current; otherwise (sources edited since, no build, or CREDENCE_FROM_SOURCE=1) it
// runs the TypeScript sources through tsx, which is slower to start but always what the sources say.
// CREDENCE_FROM_SOURCE=0 runs the build even when the sources are newer (benchmarks).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const stamp = path.join(root, 'dist', '.build-stamp');

/** True when some shipped source file changed after the last build. */
function sourcesNewerThan(time, dir = src) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (sourcesNewerThan(time, file)) return true;
    } else if (!entry.name.endsWith('.test.ts') && statSync(file).mtimeMs > time) {
      return true;
    }
  }
  return false;
}

function useBuild() {
  const setting = process.env.CREDENCE_FROM_SOURCE;
  if (setting === '1' || setting === 'true') return false;
  if (!existsSync(stamp)) return false;
  if (setting === '0' || setting === 'false') return true;
  if (!existsSync(src)) return true; // an image or package carrying only the build
  return !sourcesNewerThan(statSync(stamp).mtimeMs);
}

if (useBuild()) {
  await import(pathToFileURL(path.join(root, 'dist', 'cli.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(src, 'cli.ts')).href);
}
