// DIDs: registration, resolution (cached 5 minutes, invalidated on every instance), owner-only document
// updates, and the identity signals the scoring module reads.
import { AppError, fieldError, forbidden, notFound } from '../../platform/errors.js';
import type { Cache } from '../../platform/cache/index.js';
import { toChecksum } from '../../platform/http/address.js';
import type { IdentitySignal } from '../scoring/contracts.js';
import { buildDidDocument, didFor, parseDid } from './did.js';
import type { DidRow, IdentityRepo } from './repo.js';
import type { ControlMethod, ControlRepo } from './control.js';
import { MAX_DID_DOCUMENT } from './schemas.js';

export const DID_CACHE_TTL_MS = 5 * 60_000;
/** Unknown DIDs are remembered briefly so a flood of lookups does not reach the database. */
const MISS_TTL_MS = 5_000;

export interface DidServiceDeps {
  repo: IdentityRepo;
  cache: Cache<DidRow | null>;
  /** Called after anything that changes a wallet's identity signal (fire and forget). */
  onIdentityChange(address: string): void;
  /** Wallets that proved control of their key (no DID credit without it); absent: no wallet ever has. */
  control?: Pick<ControlRepo, 'record' | 'proved' | 'provedAmong'>;
}

export function createDidService({ repo, cache, onIdentityChange, control }: DidServiceDeps) {
  async function resolve(input: string): Promise<DidRow | null> {
    const parsed = parseDid(input);
    if (!parsed) return null;
    let row = cache.get(parsed.did);
    if (row === undefined) {
      row = await repo.byDid(parsed.did);
      cache.set(parsed.did, row, row ? DID_CACHE_TTL_MS : MISS_TTL_MS);
    }
    return row;
  }

  async function mustResolve(input: string): Promise<DidRow> {
    const row = await resolve(input);
    if (!row) throw notFound(`No DID ${input} is registered.`);
    return row;
  }

  return {
    resolve,
    mustResolve,

    async register(walletAddress: string, chainId: number): Promise<{ row: DidRow; created: boolean }> {
      const address = walletAddress.toLowerCase();
      const did = didFor(chainId, address);
      const inserted = await repo.insertDid({
        did,
        walletAddress: address,
        chainId,
        document: JSON.stringify(buildDidDocument(chainId, address)),
      });
      if (inserted) {
        cache.invalidate(did);
        onIdentityChange(address);
        return { row: inserted, created: true };
      }
      const existing = await repo.byWalletChain(address, chainId);
      if (!existing) throw new Error(`DID insert for ${did} conflicted but no row exists`);
      return { row: existing, created: false };
    },

    async registerOrConflict(walletAddress: string, chainId: number): Promise<DidRow> {
      const { row, created } = await this.register(walletAddress, chainId);
      if (!created) {
        throw new AppError('invalid_state', `A DID is already registered for this wallet on chain ${chainId}: ${row.did}`);
      }
      return row;
    },

    /** Replaces the DID document; only the wallet that owns the DID may. */
    async updateDocument(input: string, document: string, caller: string): Promise<void> {
      const row = await mustResolve(input);
      if (row.wallet_address !== caller.toLowerCase()) throw forbidden('Only the wallet that owns this DID may update its document.');
      if (!row.is_active) throw new AppError('invalid_state', `The DID ${row.did} is deactivated.`);
      if (document.length > MAX_DID_DOCUMENT) throw fieldError('didDocument', `must be at most ${MAX_DID_DOCUMENT} characters`);
      let doc: unknown;
      try {
        doc = JSON.parse(document);
      } catch {
        throw fieldError('didDocument', 'must be valid JSON');
      }
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw fieldError('didDocument', 'must be a JSON object');
      const id = (doc as { id?: unknown }).id;
      const parsedId = typeof id === 'string' ? parseDid(id) : null;
      if (!parsedId || parsedId.did !== row.did) throw fieldError('didDocument', `must have "id" equal to the DID (${row.did})`);
      await repo.updateDocument(row.did, document);
      cache.invalidate(row.did);
      // The caller's JWT is the wallet's own signature, so a document update proves control too.
      await this.recordControl(row.wallet_address, 'did_update');
    },

    /** A wallet proved control of its key; its DIDs earn IDENTITY credit from now on (recomputed if it has one). */
    async recordControl(address: string, method: ControlMethod): Promise<void> {
      if (!control) return;
      const a = address.toLowerCase();
      if (!(await control.record(a, method))) return;
      if ((await repo.byWallet(a)).some((d) => d.is_active)) onIdentityChange(a);
    },

    /** Deactivation is permanent: the record stays resolvable with isActive false; nothing can be issued to it. */
    async deactivate(input: string, caller: string): Promise<void> {
      const row = await mustResolve(input);
      if (row.wallet_address !== caller.toLowerCase()) throw forbidden('Only the wallet that owns this DID may deactivate it.');
      if (!(await repo.deactivate(row.did))) throw new AppError('invalid_state', `The DID ${row.did} is already deactivated.`);
      cache.invalidate(row.did);
      onIdentityChange(row.wallet_address);
    },

    async signalFor(address: string): Promise<IdentitySignal> {
      const a = address.toLowerCase();
      const [dids, activeCredentials, controlProved] = await Promise.all([
        repo.byWallet(a),
        repo.activeCredentialCount(a),
        control ? control.proved(a) : Promise.resolve(false),
      ]);
      return identitySignal(dids, activeCredentials, controlProved);
    },

    /** signalFor of many wallets in three queries (bulk scoring), in the order asked. */
    async signalsForMany(addresses: string[]): Promise<IdentitySignal[]> {
      const wanted = addresses.map((a) => a.toLowerCase());
      const [dids, counts, proved] = await Promise.all([
        repo.byWallets(wanted),
        repo.activeCredentialCounts(wanted),
        control ? control.provedAmong(wanted) : Promise.resolve(new Set<string>()),
      ]);
      const by = new Map<string, DidRow[]>(wanted.map((a) => [a, []]));
      for (const d of dids) by.get(d.wallet_address)?.push(d);
      return wanted.map((a) => identitySignal(by.get(a)!, counts.get(a) ?? 0, proved.has(a)));
    },
  };
}

/** What scoring reads of a wallet's identity. */
function identitySignal(dids: DidRow[], activeCredentials: number, controlProved: boolean): IdentitySignal {
  const active = dids.filter((d) => d.is_active);
  // Ethereum's DID first when there is one; else the oldest.
  const primary = active.find((d) => d.chain_id === 1) ?? active[0] ?? null;
  return {
    did: primary?.did ?? null,
    hasDid: active.length > 0,
    didCreatedAt: active.length ? active[0].created_at : null,
    activeCredentials,
    // registration is public: only a wallet that signed (SIWE or a DID update) earns DID credit
    controlProved: controlProved && active.length > 0,
  };
}

export type DidService = ReturnType<typeof createDidService>;

export function toDidRecord(row: DidRow) {
  return {
    id: row.id,
    did: row.did,
    walletAddress: toChecksum(row.wallet_address),
    didDocument: row.did_document,
    chainId: Number(row.chain_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    isActive: row.is_active,
  };
}
