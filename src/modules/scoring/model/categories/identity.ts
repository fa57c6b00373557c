// IDENTITY: verification a wallet cannot buy for nothing (proved DIDs, trusted credentials, KYC, ENS, trusted attestations).
import type { WalletFeatures } from '../../contracts.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { sat } from '../transforms.js';
import { anchor, plural, result, untrustedAttestations, type ModelSignals } from './shared.js';

export function identity(f: WalletFeatures, s: ModelSignals, P: ModelParams): CategoryResult {
  const I = P.identity;
  const id = s.identity;
  const kyc = s.compliance;
  const i = f.identity;
  const terms: Term[] = [];
  // DID registration is public: credit only once the wallet proved control of its key (SIWE sign-in or a signed update).
  // Even then it is nearly free, so it earns close to nothing.
  const didCredit = id.hasDid && id.controlProved === true;
  if (didCredit) terms.push({ code: 'DID_REGISTERED', description: `registered DID ${id.did ?? ''}`.trim(), points: I.did });
  else if (id.hasDid)
    terms.push({
      code: 'DID_CONTROL_UNPROVEN',
      description: `DID ${id.did ?? ''} registered, but its wallet has not signed in or signed a DID update: no credit yet`,
      points: 0,
      pinned: true,
    });
  // only credentials from a trusted issuer count: the service's own KYC-backed types, never a holder's assertion
  if (id.activeCredentials > 0) {
    terms.push({
      code: 'VERIFIABLE_CREDENTIALS',
      description: `${plural(id.activeCredentials, 'service-verified credential')} (KYC-backed)`,
      points: I.credentials.points * sat(id.activeCredentials, I.credentials.k),
    });
  }
  if (kyc.kycStatus === 'approved') {
    terms.push({
      code: 'KYC_VERIFIED',
      description: `identity verified (KYC level ${kyc.kycLevel === 'full' ? 'full' : 'basic'})`,
      points: kyc.kycLevel === 'full' ? I.kycFull : I.kycBasic,
    });
  } else if (kyc.kycStatus === 'rejected') {
    terms.push({ code: 'KYC_REJECTED', description: 'identity verification was rejected', points: I.kycRejected });
  }
  if (i.ensNames > 0)
    terms.push({
      code: 'ENS_NAME',
      description: `${plural(i.ensNames, 'ENS name')} registered`,
      points: I.ens.points * sat(i.ensNames, I.ens.k),
    });
  if (i.attestationsReceived > 0)
    terms.push({
      code: 'ATTESTATIONS_RECEIVED',
      description: `${plural(i.attestationsReceived, 'attestation')} about this wallet`,
      points: I.attestations.points * sat(i.attestationsReceived, I.attestations.k),
    });
  if (i.untrustedReceived) terms.push(untrustedAttestations(i.untrustedReceived, 'about it'));
  const kycDecided = kyc.kycStatus === 'approved' || kyc.kycStatus === 'rejected';
  const ev = (didCredit ? 1 : 0) + id.activeCredentials + (kycDecided ? 1 : 0) + i.ensNames + i.attestationsReceived;
  const conf = confidenceOf(
    ev,
    I.confidenceK,
    [didCredit, id.activeCredentials > 0, kycDecided, i.ensNames > 0, i.attestationsReceived > 0],
    f.chains.length,
  );
  // a DID counts as off-chain evidence only once its wallet proved control: registration is public, so a stranger
  // registering a victim's DID must neither reset the decay anchor nor clear an admin's IDENTITY revision
  const offchain = `${didCredit ? `${id.did}:proved` : ''},${id.activeCredentials},${kyc.kycStatus},${kyc.kycLevel}`;
  return result(
    'IDENTITY',
    terms,
    conf,
    `${i.ensNames},${i.attestationsReceived}`,
    offchain,
    {
      code: 'NO_IDENTITY_EVIDENCE',
      description: 'no DID, credentials, KYC, ENS name or attestations',
    },
    anchor(f, 'identity'),
    null,
  );
}
