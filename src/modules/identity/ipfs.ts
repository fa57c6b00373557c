// Content addressing of issued credentials: the CIDv1 (raw codec, sha2-256) of the credential JWT's bytes,
// which is also what an IPFS node returns for the same bytes added with cid-version=1 and raw leaves.
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { upstream } from '../../platform/errors.js';

export async function cidOf(bytes: Uint8Array): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(bytes)).toString();
}

export interface Pinner {
  /** Adds and pins the bytes; returns the CID the node reports. */
  pin(bytes: Uint8Array, name: string): Promise<string>;
}

/** Kubo-compatible HTTP RPC (`/api/v0/add`); credentials in the URL become Basic auth. */
export function createIpfsPinner(apiUrl: string, timeoutMs = 10_000): Pinner {
  const u = new URL(apiUrl);
  const auth = u.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
    : null;
  u.username = '';
  u.password = '';
  const base = u.toString().replace(/\/+$/, '');
  return {
    async pin(bytes, name) {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
      const url = `${base}/api/v0/add?cid-version=1&raw-leaves=true&hash=sha2-256&pin=true`;
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          body: form,
          headers: auth ? { authorization: auth } : {},
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw upstream(`The IPFS node at ${base} could not be reached (${(e as Error).message}).`);
      }
      if (!res.ok) throw upstream(`The IPFS node answered ${res.status} when pinning the credential.`);
      const text = await res.text();
      // Kubo streams one JSON object per line; the last names the added file.
      const lines = text.trim().split('\n').filter(Boolean);
      let hash: unknown;
      try {
        hash = JSON.parse(lines[lines.length - 1] ?? '{}').Hash;
      } catch {
        /* fall through */
      }
      if (typeof hash !== 'string') throw upstream('The IPFS node gave no CID for the pinned credential.');
      return hash;
    },
  };
}
