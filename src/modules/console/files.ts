// The console's built files (console/dist, from `npm run build:console`), read once into memory with their
// gzip form and an ETag: a few hundred kilobytes that every page view needs, so no disk read per request.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** console/dist relative to this file: the same from src/modules/console and from the compiled dist/modules/console. */
export const DEFAULT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../console/dist');

/** Every file under dir by its URL path relative to dir ("index.html", "assets/console-abc.js"); null when dir is missing. */
export function loadFiles(dir: string = DEFAULT_DIR): Map<string, StaticFile> | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name;
      const full = path.join(dir, rel);
      if (statSync(full).isDirectory()) walk(rel);
      else {
        const body = readFileSync(full);
        const type = TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
        const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.length > 1024;
        files.set(rel, { body, gzip: compressible ? gzipSync(body, { level: 9 }) : null, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
      }
    }
  };
  walk('');
  return files;
}
