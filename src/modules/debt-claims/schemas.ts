// TypeBox schemas of the debt-claim routes. Amounts are exact decimals: accepted as a JSON number or a numeric
// string, answered as a JSON number with exactly the stored digits (the spec's type) and, beside it, as an exact
// decimal string (`amountExact`), since JSON.parse rounds long numbers to a float.
import { Type, type Static } from '@sinclair/typebox';
import { PageCursor } from '../../platform/http/pagination.js';
import { AddressOrEns, EthAddress, Nullable, Timestamp, TxHash, Uuid } from '../../platform/http/schemas.js';
import { SUPPORTED_CHAINS } from '../../platform/config.js';

export const CLAIM_TYPES = ['DefaultedLoan', 'LiquidationShortfall', 'UnpaidInvoice', 'BrokenRepaymentPlan', 'Other'] as const;
export const CLAIM_STATUSES = ['Pending', 'Disputed', 'Resolved', 'Withdrawn'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type InFavorOf = 'creditor' | 'debtor';

const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });
const Text = (min: number, max: number, description?: string) => Type.String({ minLength: min, maxLength: max, description });

/**
 * The plugin's JSON parser hands the handler a number's exact source text, so the value validated is always a
 * string. String first: with Ajv's type coercion a number branch tried first would turn "12.5" into a float.
 */
const AmountIn = Type.Unsafe<string>({
  anyOf: [{ type: 'string' }, { type: 'number' }],
  description:
    'Exact decimal >= 0.000001 (at most 30 integer digits and 18 decimal places), as a JSON number or a numeric string. ' +
    'It is never converted to a binary float: 12345678901234567890.123456 is stored and returned exactly.',
  examples: [1500.25],
});
const AmountOut = (description: string) => Type.Unsafe<number>({ type: 'number', description });
const ExactOut = (description: string) =>
  Type.String({
    pattern: '^\\d+(\\.\\d+)?$',
    description: `${description}; the exact decimal as a string (JSON.parse rounds long numbers)`,
    examples: ['1500.25'],
  });

/**
 * OpenAPI 3.0: `nullable: true` does not admit null past an `enum` that lacks it, so null is listed in the enum
 * too (generated clients and validators then accept the `inFavorOf: null` every unresolved claim carries).
 */
const NullableEnum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T | null>({ type: 'string', enum: [...values, null], nullable: true, description });

export const Verification = Type.Object(
  {
    creditorSignedIn: Type.Boolean({ description: 'the claim was filed with a JWT whose subject is creditorAddress' }),
    evidenceStatus: StringEnum(
      ['pending', 'found', 'not_found', 'unverifiable'] as const,
      'pending: not checked yet; found / not_found: checked over the RPC configured for chainId; unverifiable: no RPC for that chain, or it kept failing',
    ),
    evidenceFound: Type.Unsafe<boolean | null>({
      type: 'boolean',
      nullable: true,
      description:
        'evidenceTransactionHash is a successful transaction on chainId, sent by the creditor, moving priced value (the principal) to the debtor, ' +
        'at least CREDENCE_CLAIM_MIN_PRINCIPAL_USD (100) worth, mined at least CREDENCE_CLAIM_MIN_EVIDENCE_AGE_HOURS (168) before the claim; null while pending or when unverifiable',
    }),
    evidenceProblem: Type.Unsafe<string | null>({
      type: 'string',
      nullable: true,
      enum: [
        'not_mined',
        'reverted',
        'not_sent_by_creditor',
        'no_value_to_debtor',
        'unpriced',
        'below_floor',
        'too_recent',
        'no_rpc',
        null,
      ],
      description: 'why the evidence does not count; null when it does or before the check',
    }),
    evidenceValueUsd: Type.Unsafe<number | null>({
      type: 'number',
      nullable: true,
      description:
        'USD the evidence moved from the creditor to the debtor, valued at its block (stablecoins at 1, other assets by the Aave V3 oracle)',
    }),
    evidenceAt: Nullable(Timestamp({ description: "the evidence block's time" })),
    creditorHasHistory: Type.Unsafe<boolean | null>({
      type: 'boolean',
      nullable: true,
      description: 'the creditor sent transactions of its own before the evidence (its nonce); null when nothing could tell',
    }),
    creditorWeight: Type.Unsafe<number | null>({
      type: 'number',
      nullable: true,
      description:
        "0.25-1: the creditor's own costly history when the claim was checked (its best score in DEFI_LENDING, DEFI_TRADING, GOVERNANCE, NFT or DEVELOPER: full weight from 500); null when not weighed (not verifiable)",
    }),
    verified: Type.Boolean({
      description: "signed in, evidence found and creditor history: the claim takes the spec's impact table, scaled by creditorWeight",
    }),
    weight: Type.Number({
      description:
        'weight of its Pending impact: creditorWeight when verified, 0.25 otherwise (unverified claims are capped together; see the operation description)',
    }),
    noticeEndsAt: Nullable(
      Timestamp({
        description:
          "the end of the debtor's notice period: a Pending claim has no impact before it (CREDENCE_CLAIM_NOTICE_HOURS, default 336 = 14 days)",
      }),
    ),
    inNotice: Type.Boolean({
      description: 'Pending and still in the notice period: no impact yet; a dispute now stops it from ever counting while under review',
    }),
    checkedAt: Nullable(Timestamp({ description: 'when the evidence was checked' })),
  },
  { title: 'DebtClaimVerification' },
);

export const CreateClaimBody = Type.Object({
  creditorAddress: EthAddress({ description: 'the wallet owed the debt (the filer)' }),
  debtorAddress: AddressOrEns({ description: 'the wallet that owes; must differ from creditorAddress' }),
  claimType: StringEnum(CLAIM_TYPES),
  amount: AmountIn,
  currency: Type.String({ pattern: '^[A-Z]{3,5}$', description: '3-5 uppercase letters, e.g. USDC' }),
  description: Text(10, 2000),
  evidenceTransactionHash: TxHash(),
  chainId: Type.Unsafe<number>({
    type: 'integer',
    enum: [...SUPPORTED_CHAINS],
    description: 'a supported chain: 1, 10, 137, 8453 or 42161',
  }),
  protocolName: Type.String({ minLength: 1, maxLength: 100 }),
});
export type CreateClaimBody = Static<typeof CreateClaimBody>;

export const Claim = Type.Object(
  {
    id: Uuid(),
    creditorAddress: EthAddress(),
    debtorAddress: EthAddress(),
    claimType: StringEnum(CLAIM_TYPES),
    status: StringEnum(CLAIM_STATUSES),
    amount: AmountOut('exact decimal, with exactly the digits stored'),
    amountExact: ExactOut('the same amount'),
    currency: Type.String(),
    description: Type.String(),
    evidenceTransactionHash: Type.String(),
    chainId: Type.Integer(),
    protocolName: Type.String(),
    resolutionNotes: Nullable(Type.String({ description: "the debtor's reason once Disputed; the admin's notes once Resolved" })),
    inFavorOf: NullableEnum(['creditor', 'debtor'] as const, 'for Resolved claims: whom the resolution favours; null otherwise'),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    resolvedAt: Nullable(Timestamp()),
    verification: Verification,
    environment: StringEnum(
      ['live', 'test'] as const,
      'test for a claim filed with test credentials (sandbox data, never scored); live otherwise',
    ),
  },
  { title: 'DebtClaim' },
);

const Summary = {
  id: Uuid(),
  claimType: StringEnum(CLAIM_TYPES),
  status: StringEnum(CLAIM_STATUSES),
  amount: AmountOut('exact decimal'),
  amountExact: ExactOut('the same amount'),
  currency: Type.String(),
  protocolName: Type.String(),
  verified: Type.Boolean({
    description: 'creditor signed in, evidence found between the parties, creditor has history (see DebtClaim.verification)',
  }),
  createdAt: Timestamp(),
};

const NextCursor = Nullable(Type.String({ description: 'pass as ?cursor= for the next page; null on the last page' }));
const HasMore = Type.Boolean({ description: 'true when another page follows' });

export const DebtorListing = Type.Object({
  debtorAddress: EthAddress(),
  totalOutstandingDebt: Nullable(
    AmountOut(
      'sum of Pending and Disputed amounts when they share one currency (0 when there are none); null when they span several currencies (see outstandingByCurrency)',
    ),
  ),
  totalOutstandingDebtExact: Nullable(ExactOut('totalOutstandingDebt')),
  outstandingByCurrency: Type.Record(Type.String(), AmountOut('sum of Pending and Disputed amounts in this currency'), {
    description: 'currency -> outstanding amount (Pending + Disputed); empty when nothing is outstanding',
  }),
  outstandingByCurrencyExact: Type.Record(Type.String(), ExactOut('outstandingByCurrency[currency]'), {
    description: 'outstandingByCurrency with exact decimal strings',
  }),
  claimCount: Type.Integer({ description: 'all claims against this debtor, every status' }),
  claims: Type.Array(Type.Object({ ...Summary, creditorAddress: EthAddress() })),
  nextCursor: NextCursor,
  hasMore: HasMore,
});

export const CreditorListing = Type.Object({
  creditorAddress: EthAddress(),
  claimCount: Type.Integer({ description: 'all claims filed by this creditor, every status' }),
  claims: Type.Array(Type.Object({ ...Summary, debtorAddress: EthAddress() })),
  nextCursor: NextCursor,
  hasMore: HasMore,
});

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'page size, 1-100 (default 50); newest first' })),
  cursor: Type.Optional(PageCursor()),
});
export type ListQuery = Static<typeof ListQuery>;

export const IdParams = Type.Object({ id: Uuid() });
export const AddressParams = Type.Object({ address: AddressOrEns({ description: 'the wallet: a 0x address or an ENS name' }) });

export const DisputeClaimBody = Type.Object({
  debtorAddress: EthAddress({ description: "must be the claim's debtor" }),
  reason: Text(10, 2000, 'why the debtor disputes the claim; stored as resolutionNotes'),
});
export const DisputeClaimResponse = Type.Object({
  id: Uuid(),
  status: Type.Literal('Disputed'),
  resolutionNotes: Type.String(),
  updatedAt: Timestamp(),
});

export const ResolveClaimBody = Type.Object({
  resolutionNotes: Text(10, 2000),
  inFavorOf: Type.Optional(
    StringEnum(
      ['creditor', 'debtor'] as const,
      'whom the resolution favours (default creditor): creditor = debt confirmed (significant negative impact on the debtor), debtor = claim rejected (impact removed)',
    ),
  ),
});
export const ResolveClaimResponse = Type.Object({
  id: Uuid(),
  status: Type.Literal('Resolved'),
  resolutionNotes: Type.String(),
  inFavorOf: StringEnum(['creditor', 'debtor'] as const),
  resolvedAt: Timestamp(),
  updatedAt: Timestamp(),
});

export const WithdrawClaimBody = Type.Object({
  creditorAddress: EthAddress({ description: "must be the claim's creditor" }),
});
export const WithdrawClaimResponse = Type.Object({
  id: Uuid(),
  status: Type.Literal('Withdrawn'),
  updatedAt: Timestamp(),
  resolvedAt: Timestamp(),
});
