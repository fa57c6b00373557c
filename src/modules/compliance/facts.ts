// What the compliance module established about KYC, for the credentials the identity module signs as the service's
// own findings (KYCVerified), and the hook that withdraws those credentials when a KYC is revoked.
import type { KycLevel } from './providers/types.js';

export interface ApprovedKyc {
  sessionId: string;
  provider: string;
  level: Exclude<KycLevel, 'none'>;
  /** when the provider's signed approval was recorded */
  completedAt: Date;
}

export interface KycFacts {
  /** The approved KYC session of this DID (canonical form), or null: nothing else may back a KYCVerified credential. */
  approvedSession(did: string): Promise<ApprovedKyc | null>;
}

/** The identity module revokes the credentials backed by a wallet's KYC (KYCVerified, AgeOver); returns how many. */
export interface KycBackedCredentials {
  revokeKycBacked(address: string, actor: string): Promise<number>;
}
