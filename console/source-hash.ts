// A hash of the console's own sources, written into dist/ at build: the service's test compares it with the
// sources so a change committed without rebuilding console/dist fails CI instead of shipping an old console.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['src', 'index.html', 'landing.html', 'vite.config.ts', 'package-lock.json'];

export function sourceHash(consoleDir: string): string {
  const h = createHash('sha256');
  const add = (rel: string) => {
    const full = path.join(consoleDir, rel);
    if (statSync(full).isDirectory()) for (const name of readdirSync(full).sort()) add(`${rel}/${name}`);
    else h.update(`${rel}\0`).update(readFileSync(full)).update('\0');
  };
  for (const i of INPUTS) add(i);
  return h.digest('hex');
}
