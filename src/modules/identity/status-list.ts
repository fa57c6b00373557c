// W3C Bitstring Status List v1.0 for the credentials the service issues: each credential gets a random free index
// in a list of 131,072 bits (16 KB, the spec's minimum, for herd privacy) and carries a BitstringStatusListEntry
// pointing at the list; the list itself is a VC (type BitstringStatusListCredential, signed by the issuer like the
// other credentials) served without a key. It is built from the database on each request, so a revocation on any
// instance flips the bit everywhere at once; the JWT is deterministic for a given state (issued at the list's last
// change), which gives a stable ETag.
import { createHash, randomInt } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { controllerKeyId } from './did.js';
import { signJwt } from './es256k.js';
import type { IdentityRepo } from './repo.js';

/** Bits per list: the spec's minimum of 16 KB (131,072 entries). */
export const STATUS_LIST_SIZE = 131_072;
/** A list takes new credentials until half full, so a random free index is found in a few tries. */
const FILL_LIMIT = STATUS_LIST_SIZE / 2;
export const STATUS_LIST_PATH = '/api/v1/identity/status-lists';

export interface StatusEntry {
  listId: number;
  index: number;
  credentialStatus: {
    id: string;
    type: 'BitstringStatusListEntry';
    statusPurpose: 'revocation';
    statusListIndex: string;
    statusListCredential: string;
  };
}

/** GZIP-compressed bitstring, multibase base64url (prefix `u`, no padding); index 0 is the left-most bit. */
export function encodeBitstring(size: number, setIndexes: Iterable<number>): string {
  const bytes = Buffer.alloc(size / 8);
  for (const i of setIndexes) bytes[i >> 3] |= 0x80 >> (i & 7);
  return 'u' + gzipSync(bytes).toString('base64url');
}

export function createStatusLists(deps: { repo: IdentityRepo; issuerKey: string; issuerDid: string; publicUrl: () => string }) {
  const { repo, issuerKey, issuerDid } = deps;
  const listUrl = (id: number) => `${deps.publicUrl().replace(/\/+$/, '')}${STATUS_LIST_PATH}/${id}`;

  async function currentList(): Promise<number> {
    const latest = await repo.latestStatusList();
    if (latest && (await repo.statusEntriesUsed(latest.id)) < FILL_LIMIT) return latest.id;
    const next = (latest?.id ?? 0) + 1;
    await repo.createStatusList(next, STATUS_LIST_SIZE);
    return next;
  }

  return {
    listUrl,

    /**
     * A random index not yet taken in the current list. Two concurrent issues may still draw the same one; the
     * unique index on (list, index) refuses the second insert and the caller draws again (see credentials.ts).
     */
    async allocate(): Promise<StatusEntry> {
      const listId = await currentList();
      let index = randomInt(STATUS_LIST_SIZE);
      for (let tries = 0; tries < 20 && (await repo.statusIndexTaken(listId, index)); tries++) index = randomInt(STATUS_LIST_SIZE);
      const url = listUrl(listId);
      return {
        listId,
        index,
        credentialStatus: {
          id: `${url}#${index}`,
          type: 'BitstringStatusListEntry',
          statusPurpose: 'revocation',
          statusListIndex: String(index),
          statusListCredential: url,
        },
      };
    },

    /** The status list credential as a signed VC-JWT, with its ETag; null for an unknown list. */
    async credential(listId: number): Promise<{ jwt: string; etag: string; lastModified: Date } | null> {
      const list = await repo.statusList(listId);
      if (!list) return null;
      const revoked = await repo.revokedEntries(listId);
      let changed = new Date(list.created_at).getTime();
      for (const r of revoked) changed = Math.max(changed, new Date(r.revoked_at).getTime());
      const iat = Math.floor(changed / 1000);
      const url = listUrl(listId);
      const jwt = await signJwt(
        issuerKey,
        { kid: controllerKeyId(issuerDid) },
        {
          vc: {
            '@context': ['https://www.w3.org/2018/credentials/v1'],
            id: url,
            type: ['VerifiableCredential', 'BitstringStatusListCredential'],
            credentialSubject: {
              id: `${url}#list`,
              type: 'BitstringStatusList',
              statusPurpose: list.status_purpose,
              encodedList: encodeBitstring(
                list.size,
                revoked.map((r) => r.status_index),
              ),
            },
          },
          iss: issuerDid,
          sub: `${url}#list`,
          jti: url,
          iat,
          nbf: iat,
        },
      );
      return { jwt, etag: `"${createHash('sha256').update(jwt).digest('base64url').slice(0, 27)}"`, lastModified: new Date(iat * 1000) };
    },
  };
}

export type StatusLists = ReturnType<typeof createStatusLists>;
