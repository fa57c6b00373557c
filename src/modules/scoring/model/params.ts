// The model's parameters: their shape, checked when they are loaded (src/modules/scoring/params.ts reads them from
// data/scoring/, whose "why" fields the shape lets through). The model never reads a file: it is handed one
// ModelParams (createModel in index.ts).
import { Type, type Static } from '@sinclair/typebox';

const N = Type.Number();
/** a term earning points x (1 - e^(-x/k)) */
const Sat = Type.Object({ points: N, k: Type.Number({ exclusiveMinimum: 0 }) });

export const ModelParamsSchema = Type.Object({
  weights: Type.Object({
    DEFI_LENDING: N,
    COMPLIANCE: N,
    IDENTITY: N,
    DEFI_TRADING: N,
    GOVERNANCE: N,
    SOCIAL: N,
    DEVELOPER: N,
    NFT: N,
  }),
  sanctionedOverallCap: N,
  unvaluedMaxEvents: N,
  lending: Type.Object({
    repaid: Sat,
    months: Sat,
    tenure: Type.Object({ points: N, kDays: N }),
    leverage: Type.Object({ points: N, safeLtv: N, liquidationLtv: N, unknownCredit: N }),
    speed: Type.Object({ points: N, days: N }),
    interest: Type.Object({ points: N, kUsd: N }),
    size: Type.Object({ pointsPerDecade: N, fromUsdDays: N, maxDecades: N }),
    liquidation: Type.Object({ lasting: N, recent: N, recentDays: N, size: N, sizeCapUsd: N, sizeDays: N, max: N }),
    minDebtUsdDays: N,
    confidenceK: N,
  }),
  trading: Type.Object({
    feesPaid: Type.Object({ points: N, capUsd: N }),
    days: Sat,
    pools: Sat,
    protocols: Sat,
    tokens: Sat,
    fullBreadthFeesUsd: N,
    legacyFeeRate: N,
    confidenceK: N,
  }),
  governance: Type.Object({
    votingPower: Sat,
    proposals: Sat,
    daos: Sat,
    delegated: Sat,
    delegateTrust: Sat,
    fullShareWeight: N,
    legacyVoteWeight: N,
    confidenceK: N,
  }),
  nft: Type.Object({ collections: Sat, mints: Sat, received: Sat, retention: N, confidenceK: N }),
  identity: Type.Object({
    did: N,
    credentials: Sat,
    kycFull: N,
    kycBasic: N,
    kycRejected: N,
    ens: Sat,
    attestations: Sat,
    confidenceK: N,
  }),
  social: Type.Object({
    counterparties: Sat,
    tokenTransfers: Sat,
    activeMonths: Sat,
    attestationsMade: Sat,
    delegators: Sat,
    confidenceK: N,
  }),
  developer: Type.Object({ contractsUsed: Sat, thirdPartyUsers: Sat, liveContracts: Sat, transactionsSent: Sat, confidenceK: N }),
  compliance: Type.Object({
    sanctionsClear: N,
    sanctionsUnscreened: N,
    kycFull: N,
    kycBasic: N,
    kycPending: N,
    kycRejected: N,
    history: Sat,
    confidenceK: N,
  }),
  debtClaims: Type.Object({
    pendingPerCreditor: N,
    pendingCompounding: N,
    pendingCap: N,
    unverifiedPerCreditor: N,
    unverifiedCap: N,
    upheldMax: N,
    upheldK: N,
    creditorMinWeight: N,
    creditorFullWeightScore: N,
  }),
  /** data/scoring/costs.json "ceiling": the curve from backing to the most points it supports */
  ceiling: Type.Object({ usdAt600: N, pointsPerDoubling: N, unpricedCap: N }),
  /** data/scoring/backing.json: what backs a score */
  backing: Type.Object({
    parkedYieldApr: N,
    nativeUsd: Type.Record(Type.String(), N),
    gasPriceCapGwei: Type.Record(Type.String(), N),
  }),
});

export type ModelParams = Static<typeof ModelParamsSchema>;
