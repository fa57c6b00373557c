// TypeBox schemas of the dispute routes.
import { Type, type Static } from '@sinclair/typebox';
import { AddressOrEns, EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { CATEGORIES } from '../scoring/contracts.js';
import { pageFields, pageQuery } from '../../platform/http/pagination.js';

export const DISPUTE_REASONS = [
  'InaccurateScore',
  'MissingActivity',
  'IncorrectCategory',
  'DataOutdated',
  'WrongWallet',
  'FraudulentData',
  'ComplianceError',
  'Other',
] as const;
export const DISPUTE_STATUSES = [
  'Pending',
  'Under Review',
  'Evidence Requested',
  'Resolved',
  'Rejected',
  'Escalated',
  'Withdrawn',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
/** Input also accepts the multi-word statuses without their spaces (decisions.md). */
export const STATUS_ALIASES: Record<string, DisputeStatus> = { UnderReview: 'Under Review', EvidenceRequested: 'Evidence Requested' };
/** Withdrawal is open only while the dispute is still being handled off-chain. */
export const WITHDRAWABLE: DisputeStatus[] = ['Pending', 'Under Review', 'Evidence Requested'];
/** Escalation is open from every state except these. */
export const NOT_ESCALATABLE: DisputeStatus[] = ['Withdrawn', 'Escalated'];

const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const CreateDisputeBody = Type.Object({
  walletAddress: AddressOrEns({
    description: 'the wallet whose score is disputed; it is the original submitter (the only one who may withdraw)',
  }),
  category: StringEnum(CATEGORIES, 'the disputed score category, one of the nine exact upper-case names'),
  reason: StringEnum(DISPUTE_REASONS, 'one of the eight DisputeReason values (IncorrectData is not one of them)'),
  description: Type.String({ minLength: 10, maxLength: 2000 }),
  evidence: Type.Optional(Type.String({ maxLength: 5000 })),
});
export type CreateDisputeBody = Static<typeof CreateDisputeBody>;

export const UpdateStatusBody = Type.Object({
  status: StringEnum(
    [...DISPUTE_STATUSES, ...Object.keys(STATUS_ALIASES)],
    'the new status; UnderReview and EvidenceRequested are accepted for the spaced forms',
  ),
  resolutionNotes: Type.Optional(Type.String({ maxLength: 2000 })),
  resolvedBy: Type.Optional(Type.String({ maxLength: 200 })),
  revisedScore: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1000, description: "with status Resolved, replaces the wallet's score in the disputed category" }),
  ),
});
export type UpdateStatusBody = Static<typeof UpdateStatusBody>;

export const EscalateBody = Type.Object({
  reason: Type.String({ minLength: 10, maxLength: 2000, description: 'why the off-chain resolution is unsatisfactory' }),
});

export const WithdrawBody = Type.Object({
  walletAddress: EthAddress({ description: "the dispute's walletAddress (the original submitter)" }),
});

export const Escalation = Type.Object({
  reason: Type.String(),
  escalatedAt: Timestamp(),
  onChainStatus: StringEnum(
    ['not_configured', 'pending', 'submitted', 'failed'] as const,
    'not_configured: no oracle contract is configured, the escalation is recorded off-chain only; pending/failed: submission to the oracle is under way or will be retried; submitted: txHash holds the transaction',
  ),
  txHash: Nullable(Type.String({ description: 'oracle transaction that submitted the escalation' })),
});

const DisputeFields = {
  id: Uuid(),
  walletAddress: EthAddress(),
  category: StringEnum(CATEGORIES),
  reason: StringEnum(DISPUTE_REASONS),
  status: StringEnum(DISPUTE_STATUSES),
  description: Type.String(),
  evidence: Nullable(Type.String()),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
  resolutionNotes: Nullable(Type.String()),
  resolvedBy: Nullable(Type.String()),
  revisedScore: Nullable(Type.Integer()),
  escalation: Nullable(Escalation),
};

export const Dispute = Type.Object(DisputeFields, { title: 'Dispute' });

export const HistoryEntry = Type.Object({
  fromStatus: Nullable(StringEnum(DISPUTE_STATUSES)),
  status: StringEnum(DISPUTE_STATUSES),
  changedBy: Type.String({ description: 'api-key:<key id>, admin:<address> or wallet:<address>' }),
  changedAt: Timestamp(),
  note: Nullable(Type.String()),
});

export const DisputeWithHistory = Type.Object(
  { ...DisputeFields, history: Type.Array(HistoryEntry, { description: 'every status change, oldest first' }) },
  { title: 'DisputeWithHistory' },
);

export const WalletDisputes = Type.Object({
  address: EthAddress(),
  count: Type.Integer({ description: "the wallet's disputes, on every page" }),
  disputes: Type.Array(Dispute, { description: 'newest first' }),
  ...pageFields(),
});
export const WalletDisputesQuery = Type.Object(pageQuery(100, 50));

/** Statuses still being handled: what the admin queue shows by default in the console. */
export const OPEN_STATUSES: DisputeStatus[] = ['Pending', 'Under Review', 'Evidence Requested', 'Escalated'];

export const DisputeQueueQuery = Type.Object({
  status: Type.Optional(
    StringEnum(
      [...DISPUTE_STATUSES, 'open'] as const,
      'only disputes in this status; `open` is Pending, Under Review, Evidence Requested and Escalated together',
    ),
  ),
  category: Type.Optional(StringEnum(CATEGORIES, 'only disputes of this score category')),
  walletAddress: Type.Optional(EthAddress({ description: 'only the disputes of this wallet' })),
  ...pageQuery(100, 50),
});

export const DisputeQueue = Type.Object(
  {
    count: Type.Integer({ description: 'disputes matching the filter, on every page' }),
    disputes: Type.Array(Dispute, { description: 'newest first' }),
    ...pageFields(),
  },
  { title: 'DisputeQueue' },
);

export const IdParams = Type.Object({ id: Uuid() });
export const AddressParams = Type.Object({ address: AddressOrEns({ description: 'the wallet: a 0x address or an ENS name' }) });
