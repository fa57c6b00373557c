// Verifiable credentials: the service's own issuer (a secp256k1 key whose DID did:credence:1:<address> is
// registered at start) signs W3C VCs as ES256K JWTs; each is content-addressed (CIDv1) and optionally pinned.
// The issuer key signs only what the service established (credential-types.ts): a service-verified type with the
// claims it writes itself, or a holder's claims wrapped as a HolderAssertion; a holder may also sign its own VC.
import { randomUUID } from 'node:crypto';
import { fieldError, forbidden, invalidState, notFound } from '../../platform/errors.js';
import { classifyType, HOLDER_ASSERTION_TYPE, KYC_BACKED_TYPES, type CredentialKind, type TypeClass } from './credential-types.js';
import { checkHolderJwt } from './holder-jwt.js';
import type { VerifiedClaimsService } from './verified-claims.js';
import type { JwtUser } from '../../platform/auth/jwt.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../platform/http/pagination.js';
import { assertionAddresses, controllerKeyId, didFor, parseDid } from './did.js';
import { addressOfKey, decodeJwt, recoverSigners, signJwt } from './es256k.js';
import { cidOf, type Pinner } from './ipfs.js';
import type { CredentialRow, DidRow, IdentityRepo } from './repo.js';
import type { DidService } from './service.js';
import type { StatusLists } from './status-list.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;
const CLOCK_SKEW_S = 60;
const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

export interface CredentialServiceDeps {
  repo: IdentityRepo;
  dids: DidService;
  /** the issuer's secp256k1 private key (0x and 64 hex digits) */
  issuerKey: string;
  pinner: Pinner | null;
  onIdentityChange(address: string): void;
  log: { warn(obj: unknown, msg: string): void };
  /** W3C Bitstring Status List entries for issued credentials */
  statusLists: Pick<StatusLists, 'allocate'>;
  verified: VerifiedClaimsService;
}

export function issuerDidOf(privateKey: string) {
  return didFor(1, addressOfKey(privateKey));
}

export function createCredentialService({
  repo,
  dids,
  issuerKey,
  pinner,
  onIdentityChange,
  log,
  statusLists,
  verified,
}: CredentialServiceDeps) {
  const issuerAddress = addressOfKey(issuerKey);
  const issuerDid = didFor(1, issuerAddress);

  /** Owner of the DID, or an admin. */
  function mayManage(user: JwtUser, wallet: string) {
    return user.address === wallet || user.roles.includes('admin');
  }

  function parseSubject(subject: string, did: string): { claims: Record<string, unknown>; expiresAt: Date | null } {
    let obj: unknown;
    try {
      obj = JSON.parse(subject);
    } catch {
      throw fieldError('subject', 'must be a JSON object serialized as a string');
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw fieldError('subject', 'must be a JSON object serialized as a string');
    const { expirationDate, ...claims } = obj as Record<string, unknown>;
    if (claims.id !== undefined && (typeof claims.id !== 'string' || parseDid(claims.id)?.did !== did)) {
      throw fieldError('subject', `id, when given, must be the DID ${did}`);
    }
    let expiresAt: Date | null = null;
    if (expirationDate !== undefined) {
      expiresAt =
        typeof expirationDate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(expirationDate) ? new Date(expirationDate) : new Date(NaN);
      if (Number.isNaN(expiresAt.getTime())) throw fieldError('subject', 'expirationDate must be an ISO 8601 date-time');
      if (expiresAt.getTime() <= Date.now()) throw fieldError('subject', 'expirationDate must be in the future');
    }
    return { claims: { ...claims, id: did }, expiresAt };
  }

  async function store(
    row: DidRow,
    user: JwtUser,
    c: {
      id: string;
      kind: CredentialKind;
      credentialType: string;
      issuerDid: string;
      jwt: string;
      issuedAt: Date;
      expiration: Date;
      status: { listId: number; index: number } | null;
    },
  ) {
    const bytes = new TextEncoder().encode(c.jwt);
    const ipfsHash = await cidOf(bytes);
    let pinned = false;
    if (pinner) {
      const got = await pinner.pin(bytes, `${c.id}.jwt`);
      if (got !== ipfsHash) log.warn({ expected: ipfsHash, got }, 'IPFS node reported a different CID for a pinned credential');
      pinned = true;
    }
    const rec: Omit<CredentialRow, 'revoked_at' | 'revoked_by'> = {
      id: c.id,
      did_id: row.id,
      subject_did: row.did,
      wallet_address: row.wallet_address,
      credential_type: c.credentialType,
      kind: c.kind,
      issuer_did: c.issuerDid,
      jwt: c.jwt,
      ipfs_hash: ipfsHash,
      pinned,
      issued_by: user.address,
      issuance_date: c.issuedAt,
      expiration_date: c.expiration,
      status_list_id: c.status?.listId ?? null,
      status_index: c.status?.index ?? null,
    };
    await repo.insertCredential(rec);
    onIdentityChange(row.wallet_address);
    return toCredential({ ...rec, revoked_at: null, revoked_by: null });
  }

  /** A credential the holder signed itself: checked against the DID and the request, stored once (by its jti). */
  async function storeHolderSigned(
    row: DidRow,
    user: JwtUser,
    credentialType: string,
    cls: TypeClass,
    claims: Record<string, unknown>,
    holderJwt: string,
  ) {
    if (cls.kind === 'service')
      throw fieldError('credentialType', `${credentialType} is written only by the service; a holder-signed credential cannot carry it`);
    const signed = await checkHolderJwt(holderJwt, row, credentialType, claims);
    if (await repo.credential(signed.id))
      throw invalidState(`A credential ${signed.id} (the holder JWT's jti) was already submitted; a signed credential is stored once.`);
    return store(row, user, {
      id: signed.id,
      kind: 'holder_signed',
      credentialType,
      issuerDid: row.did,
      jwt: holderJwt.trim(),
      issuedAt: signed.issuedAt,
      expiration: signed.expiration,
      status: null,
    });
  }

  /** What the issuer key signs: a service-verified type with the claims the service writes itself, or the holder's
   *  claims wrapped as a HolderAssertion; and until when (whole seconds). */
  async function issuerContent(
    row: DidRow,
    user: JwtUser,
    credentialType: string,
    cls: TypeClass,
    claims: Record<string, unknown>,
    issuedAt: Date,
    expiresAt: Date | null,
  ): Promise<{ types: string[]; credentialSubject: Record<string, unknown>; expiration: Date; kind: CredentialKind }> {
    const expiration = wholeSeconds(expiresAt ?? new Date(issuedAt.getTime() + YEAR_MS));
    if (cls.kind === 'service') {
      const v = await verified.claimsFor(cls.type, row, claims, user.address);
      return {
        types: ['VerifiableCredential', cls.type],
        credentialSubject: { id: row.did, ...v.claims },
        expiration: wholeSeconds(new Date(Math.min(expiration.getTime(), issuedAt.getTime() + v.maxLifetimeMs))),
        kind: 'service_verified',
      };
    }
    // The holder's claims, nested: a verifier reading the top level finds only who asserted what.
    const { id: _id, ...asserted } = claims;
    const assertedBy = user.address === row.wallet_address ? row.did : didFor(Number(row.chain_id), user.address);
    return {
      types: ['VerifiableCredential', HOLDER_ASSERTION_TYPE],
      credentialSubject: { id: row.did, assertion: { assertedBy, credentialType, claims: asserted } },
      expiration,
      kind: 'holder_assertion',
    };
  }

  /** Signs the VC with the issuer key under a newly allocated status entry, and stores it. */
  async function signAndStore(
    row: DidRow,
    user: JwtUser,
    c: {
      types: string[];
      credentialSubject: Record<string, unknown>;
      kind: CredentialKind;
      credentialType: string;
      issuedAt: Date;
      expiration: Date;
    },
  ) {
    const { types, credentialSubject, kind, credentialType, issuedAt, expiration } = c;
    // Two concurrent issues may draw the same status index: the unique index refuses the second, which draws again.
    for (let attempt = 1; ; attempt++) {
      const id = randomUUID();
      const status = await statusLists.allocate();
      const jwt = await signJwt(
        issuerKey,
        { kid: controllerKeyId(issuerDid) },
        {
          vc: {
            '@context': ['https://www.w3.org/2018/credentials/v1'],
            type: types,
            credentialSubject,
            credentialStatus: status.credentialStatus,
          },
          sub: row.did,
          iss: issuerDid,
          jti: `urn:uuid:${id}`,
          nbf: issuedAt.getTime() / 1000,
          iat: issuedAt.getTime() / 1000,
          exp: expiration.getTime() / 1000,
        },
      );
      try {
        return await store(row, user, { id, kind, credentialType, issuerDid, jwt, issuedAt, expiration, status });
      } catch (e) {
        if ((e as { code?: string }).code === '23505' && attempt < 5) continue;
        throw e;
      }
    }
  }

  return {
    issuerDid,
    issuerAddress,

    async issue(didInput: string, credentialType: string, subject: string, user: JwtUser, holderJwt?: string) {
      const row = await dids.mustResolve(didInput);
      if (!mayManage(user, row.wallet_address))
        throw forbidden('Only the wallet that owns this DID (or an administrator) may have credentials issued to it.');
      if (!row.is_active) throw invalidState(`The DID ${row.did} is deactivated.`);
      const { claims, expiresAt } = parseSubject(subject, row.did);
      const cls = classifyType(credentialType);
      if (cls.kind === 'lookalike')
        throw fieldError(
          'credentialType',
          `is reserved: the service's own type is spelled ${cls.of}, and only the service writes its claims`,
        );
      // Whole seconds: the JWT's nbf/exp carry seconds, and the record must agree with the token.
      const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      if (holderJwt !== undefined) return storeHolderSigned(row, user, credentialType, cls, claims, holderJwt);
      const content = await issuerContent(row, user, credentialType, cls, claims, issuedAt, expiresAt);
      return signAndStore(row, user, { ...content, credentialType, issuedAt });
    },

    /** Revokes the service-verified credentials a wallet's KYC backed (the KYC was revoked). */
    async revokeKycBacked(address: string, actor: string): Promise<number> {
      const n = await repo.revokeOfKinds(address.toLowerCase(), 'service_verified', [...KYC_BACKED_TYPES], actor);
      if (n > 0) onIdentityChange(address.toLowerCase());
      return n;
    },

    /** One page, newest first, and the cursor of the next one (null on the last page). */
    async list(didInput: string, user: JwtUser, { limit = 100, cursor }: { limit?: number; cursor?: string } = {}) {
      const before = cursor ? decodeCursor('credentials', cursor, [CREATED_KEY, UUID]) : null;
      const row = await dids.mustResolve(didInput);
      if (!mayManage(user, row.wallet_address))
        throw forbidden('Only the wallet that owns this DID (or an administrator) may list its credentials.');
      const page = cutPage(await repo.credentialsPage(row.id, limit + 1, before), limit, 'credentials', (c) => [c.created_key, c.id]);
      return { items: page.items.map(({ created_key: _k, ...c }) => toCredential(c)), nextCursor: page.nextCursor };
    },

    async revoke(didInput: string, id: string, user: JwtUser) {
      const row = await dids.mustResolve(didInput);
      if (!mayManage(user, row.wallet_address))
        throw forbidden('Only the wallet that owns this DID (or an administrator) may revoke its credentials.');
      const cred = await repo.credential(id);
      if (!cred || cred.did_id !== row.id) throw notFound(`No credential ${id} was issued to ${row.did}.`);
      const revoked = await repo.revoke(id, user.address);
      if (!revoked) throw invalidState(`Credential ${id} is already revoked.`);
      onIdentityChange(row.wallet_address);
      return toCredential(revoked);
    },

    /** Checks a credential JWT against its issuer's DID document as this service resolves it. */
    async verify(jwt: string) {
      const result = {
        valid: false,
        revoked: false,
        expired: false,
        issuer: null as string | null,
        signatureValid: false,
        credentialId: null as string | null,
        kind: null as CredentialKind | null,
        reason: null as string | null,
      };
      const decoded = decodeJwt(jwt.trim());
      if (!decoded) return { ...result, reason: 'malformed' };
      const { header, payload } = decoded;
      result.issuer = typeof payload.iss === 'string' ? payload.iss : null;
      if (header.alg !== 'ES256K' && header.alg !== 'ES256K-R') return { ...result, reason: 'unsupported_algorithm' };
      const issuerRow = result.issuer ? await dids.resolve(result.issuer) : null;
      if (!issuerRow || !issuerRow.is_active) return { ...result, reason: 'unknown_issuer' };
      let doc: unknown;
      try {
        doc = JSON.parse(issuerRow.did_document);
      } catch {
        doc = null;
      }
      const allowed = new Set(assertionAddresses(doc));
      result.signatureValid = (await recoverSigners(decoded)).some((a) => allowed.has(a));
      const jti = typeof payload.jti === 'string' ? /^urn:uuid:([0-9a-f-]{36})$/i.exec(payload.jti)?.[1] : undefined;
      if (jti) {
        const stored = await repo.credential(jti.toLowerCase());
        if (stored && stored.issuer_did === issuerRow.did) {
          result.credentialId = stored.id;
          result.revoked = stored.revoked_at !== null;
          result.kind = stored.kind;
        }
      }
      const now = Date.now() / 1000;
      result.expired = typeof payload.exp === 'number' && payload.exp < now;
      const notYet = typeof payload.nbf === 'number' && payload.nbf > now + CLOCK_SKEW_S;
      result.reason = !result.signatureValid
        ? 'bad_signature'
        : notYet
          ? 'not_yet_valid'
          : result.expired
            ? 'expired'
            : result.revoked
              ? 'revoked'
              : null;
      result.valid = result.reason === null;
      return result;
    },
  };
}

export type CredentialService = ReturnType<typeof createCredentialService>;

export function toCredential(r: CredentialRow) {
  return {
    id: r.id,
    credentialType: r.credential_type,
    kind: r.kind,
    issuerDID: r.issuer_did,
    issuanceDate: r.issuance_date,
    expirationDate: r.expiration_date,
    revoked: r.revoked_at !== null,
    revokedAt: r.revoked_at,
    ipfsHash: r.ipfs_hash,
    jwt: r.jwt,
  };
}
