// A credential the holder signed itself (ES256K or ES256K-R with its wallet key, as did-jwt does): `iss` is the
// holder's own DID, so a verifier sees exactly who asserted it. The service checks it says what the request says,
// was signed moments ago by a key of the DID's assertionMethod, and stores it once (its jti is the record's id, so a
// replay is refused). It carries no status entry: the service's status list speaks only for the service's signatures.
import { fieldError } from '../../platform/errors.js';
import { assertionAddresses } from './did.js';
import { decodeJwt, recoverSigners } from './es256k.js';
import type { DidRow } from './repo.js';

/** A holder JWT must have been signed within this many seconds (and not be dated later than the skew). */
const FRESH_S = 600;
const SKEW_S = 60;
const MAX_LIFETIME_S = 5 * 365 * 24 * 3600;

/** Key-sorted JSON, so two objects with the same members compare equal. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const bad = (message: string) => fieldError('holderJwt', message);

export async function checkHolderJwt(jwt: string, row: DidRow, credentialType: string, claims: Record<string, unknown>) {
  const d = decodeJwt(jwt.trim());
  if (!d) throw bad('is not a compact JWS');
  if (d.header.alg !== 'ES256K' && d.header.alg !== 'ES256K-R') throw bad('must be signed with ES256K or ES256K-R');
  const p = d.payload;
  if (p.iss !== row.did) throw bad(`iss must be the holder's DID ${row.did}`);
  if (p.sub !== row.did) throw bad(`sub must be the holder's DID ${row.did}`);
  const vc = p.vc as Record<string, unknown> | undefined;
  if (!vc || typeof vc !== 'object') throw bad('must carry a vc claim');
  if (canonicalJson(vc.type) !== canonicalJson(['VerifiableCredential', credentialType]))
    throw bad(`vc.type must be ["VerifiableCredential", "${credentialType}"]`);
  if (canonicalJson(vc.credentialSubject) !== canonicalJson(claims))
    throw bad('vc.credentialSubject must be exactly the request subject (with id = the DID)');
  if (vc.issuer !== undefined && vc.issuer !== row.did && (vc.issuer as { id?: unknown })?.id !== row.did)
    throw bad('vc.issuer, when present, must be the holder DID');
  if (vc.credentialStatus !== undefined)
    throw bad('must not carry a credentialStatus: the service status list covers only credentials the service signs');
  const jti =
    typeof p.jti === 'string' ? /^urn:uuid:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(p.jti)?.[1] : undefined;
  if (!jti) throw bad('jti must be urn:uuid:<uuid>');
  const now = Math.floor(Date.now() / 1000);
  const iat = typeof p.nbf === 'number' ? p.nbf : p.iat;
  if (typeof iat !== 'number' || !Number.isInteger(iat) || iat > now + SKEW_S || iat < now - FRESH_S)
    throw bad(`nbf (or iat) must be within the last ${FRESH_S} seconds`);
  if (typeof p.exp !== 'number' || !Number.isInteger(p.exp) || p.exp <= now || p.exp > iat + MAX_LIFETIME_S)
    throw bad('exp must be in the future and at most 5 years after nbf');
  let doc: unknown;
  try {
    doc = JSON.parse(row.did_document);
  } catch {
    doc = null;
  }
  const keys = new Set(assertionAddresses(doc));
  if (!(await recoverSigners(d)).some((a) => keys.has(a))) throw bad(`is not signed by a key of ${row.did}'s assertionMethod`);
  return { id: jti.toLowerCase(), issuedAt: new Date(iat * 1000), expiration: new Date(p.exp * 1000) };
}
