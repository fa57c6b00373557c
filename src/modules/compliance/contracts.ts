// What the compliance module offers other modules: the KYC facts behind the identity module's KYCVerified
// credentials, the hook that withdraws them, and the age-question allowance the proofs routes run under.
export type { ApprovedKyc, KycBackedCredentials, KycFacts } from './facts.js';
export type { AgeAsker, AgeChecksService, AgeRoute } from './age-checks.js';
