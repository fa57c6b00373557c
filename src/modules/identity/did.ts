// The `credence` DID method: did:credence:<chainId>:<address>. Parsing accepts the short form
// did:credence:0x... (chain 1) and any hex case; the canonical form has the chain id and a lowercase address.
import { toChecksum } from '../../platform/http/address.js';

export const DID_PATTERN = '^did:credence:(?:[1-9][0-9]{0,9}:)?0x[0-9a-fA-F]{40}$';
const DID_RE = new RegExp(DID_PATTERN);

export interface ParsedDid {
  did: string;
  chainId: number;
  address: string;
}

/** Canonical parts of a DID, or null when it is not a did:credence identifier. */
export function parseDid(input: string): ParsedDid | null {
  if (!DID_RE.test(input)) return null;
  const parts = input.split(':');
  const address = parts[parts.length - 1].toLowerCase();
  const chainId = parts.length === 4 ? Number(parts[2]) : 1;
  if (!Number.isSafeInteger(chainId) || chainId < 1 || chainId > 2147483647) return null;
  return { did: didFor(chainId, address), chainId, address };
}

export const didFor = (chainId: number, address: string) => `did:credence:${chainId}:${address.toLowerCase()}`;

export const controllerKeyId = (did: string) => `${did}#controller`;

/** The W3C DID Core document the service creates for a wallet. */
export function buildDidDocument(chainId: number, address: string): Record<string, unknown> {
  const did = didFor(chainId, address);
  const key = controllerKeyId(did);
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/secp256k1recovery-2020/v2'],
    id: did,
    controller: did,
    verificationMethod: [
      {
        id: key,
        type: 'EcdsaSecp256k1RecoveryMethod2020',
        controller: did,
        blockchainAccountId: `eip155:${chainId}:${toChecksum(address)}`,
      },
    ],
    authentication: [key],
    assertionMethod: [key],
  };
}

interface VerificationMethod {
  id?: string;
  type?: string;
  blockchainAccountId?: string;
  ethereumAddress?: string;
}

/**
 * Lowercase Ethereum addresses allowed to make assertions (sign credentials) for a DID document:
 * the assertionMethod entries (by reference or embedded) that carry a CAIP-10 eip155 account or an ethereumAddress.
 */
export function assertionAddresses(doc: unknown): string[] {
  if (!doc || typeof doc !== 'object') return [];
  const d = doc as { verificationMethod?: unknown; assertionMethod?: unknown };
  const methods = Array.isArray(d.verificationMethod) ? (d.verificationMethod as VerificationMethod[]) : [];
  const refs = Array.isArray(d.assertionMethod) ? d.assertionMethod : [];
  const out = new Set<string>();
  for (const ref of refs) {
    const vm = typeof ref === 'string' ? methods.find((m) => m && m.id === ref) : (ref as VerificationMethod);
    if (!vm || typeof vm !== 'object') continue;
    const account =
      typeof vm.blockchainAccountId === 'string' ? /^eip155:\d+:(0x[0-9a-fA-F]{40})$/.exec(vm.blockchainAccountId)?.[1] : undefined;
    const eth = typeof vm.ethereumAddress === 'string' && /^0x[0-9a-fA-F]{40}$/.test(vm.ethereumAddress) ? vm.ethereumAddress : undefined;
    for (const a of [account, eth]) if (a) out.add(a.toLowerCase());
  }
  return [...out];
}
