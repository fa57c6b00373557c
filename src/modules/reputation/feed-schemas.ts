// TypeBox schemas of score history, the change feed and bulk scoring jobs.
import { Type } from '@sinclair/typebox';
import { AddressOrEns, EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { CategorySchema } from './schemas.js';
import { PageCursor, PageLimit } from '../../platform/http/pagination.js';

/** The older parameters `before` / `after`: a change's `cursor` (opaque), or the change's number as they took before. */
const Cursor = (description: string) =>
  Type.String({ pattern: '^([0-9]{1,19}|[A-Za-z0-9_-]{1,400}\\.[A-Za-z0-9_-]{10})$', maxLength: 512, description });

export const ScoreChange = Type.Object(
  {
    cursor: Type.String({
      description: 'opaque position of this change (pass as `cursor`, or as `after` / `before`)',
      examples: ['WyJzY29yZV9jaGFuZ2UiLCIxMDQyIl0.q1Yx0aB2cD'],
    }),
    address: EthAddress({ description: 'EIP-55 checksummed' }),
    category: CategorySchema,
    oldScore: Nullable(Type.Integer({ minimum: 0, maximum: 1000, description: 'null for the first score of the wallet' })),
    newScore: Type.Integer({ minimum: 0, maximum: 1000 }),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'confidence when the change was made (not decayed)' }),
    tier: Type.String({ examples: ['High'] }),
    cause: Type.String({
      description:
        'what changed the score: first_read, ingestion, debt_claim, dispute_revision, kyc, sanctions, identity, model_upgrade, ...',
      examples: ['ingestion'],
    }),
    modelVersion: Type.String({ examples: ['3.0.0'] }),
    calculatedAt: Timestamp(),
    recordedAt: Timestamp({ description: 'when the change was stored' }),
  },
  { title: 'ScoreChange' },
);

export const HistoryQuery = Type.Object({
  limit: PageLimit(500, 50),
  cursor: Type.Optional(PageCursor()),
  before: Type.Optional(Cursor("older name of `cursor` here (a change's `cursor`: the changes before it)")),
});

export const HistoryResponse = Type.Object(
  {
    address: EthAddress({ description: 'EIP-55 checksummed' }),
    ensName: Type.Optional(
      Type.String({ description: 'the ENS name the request used, normalized (only when it used one)', examples: ['vitalik.eth'] }),
    ),
    category: CategorySchema,
    count: Type.Integer(),
    changes: Type.Array(ScoreChange, { description: 'newest first' }),
    nextCursor: Nullable(Type.String({ description: 'pass as `cursor` for older changes; null when there are none' })),
    hasMore: Type.Boolean({ description: 'true when older changes follow' }),
  },
  { title: 'ScoreHistory' },
);

export const FeedQuery = Type.Object({
  cursor: Type.Optional(PageCursor()),
  after: Type.Optional(Cursor('older name of `cursor` here (the changes after this one; omit both to start from the oldest change)')),
  limit: PageLimit(1000, 100),
  category: Type.Optional(CategorySchema),
  address: Type.Optional(AddressOrEns({ description: 'only this wallet (a 0x address or an ENS name)' })),
});

export const FeedResponse = Type.Object(
  {
    count: Type.Integer(),
    changes: Type.Array(ScoreChange, { description: 'oldest first' }),
    nextCursor: Nullable(
      Type.String({
        description:
          'pass as `cursor` next time; when nothing is new it is the cursor you sent (poll again with it); null only while the feed is empty',
      }),
    ),
    hasMore: Type.Boolean({ description: 'true when more changes are waiting: call again at once' }),
  },
  { title: 'ScoreChangeFeed' },
);

export const MAX_JOB_ADDRESSES = 100_000;

export const BatchJobBody = Type.Object({
  addresses: Type.Array(EthAddress(), {
    minItems: 1,
    maxItems: MAX_JOB_ADDRESSES,
    description: `1-${MAX_JOB_ADDRESSES} addresses, answered in request order (0x addresses only: resolve ENS names first, or use POST /reputation/batch)`,
  }),
  category: CategorySchema,
});

export const BatchJob = Type.Object(
  {
    id: Uuid(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
    category: CategorySchema,
    total: Type.Integer({ description: 'addresses in the job' }),
    processed: Type.Integer({ description: 'addresses scored so far' }),
    error: Nullable(Type.String()),
    createdAt: Timestamp(),
    startedAt: Nullable(Timestamp()),
    completedAt: Nullable(Timestamp()),
    expiresAt: Timestamp({ description: 'the job and its result are deleted then (7 days after creation)' }),
    statusUrl: Type.String(),
    resultUrl: Type.String({ description: 'GET it once `status` is completed: JSON lines, or CSV with ?format=csv' }),
  },
  { title: 'BatchJob' },
);

export const JobParams = Type.Object({ id: Uuid({ description: 'batch job id' }) });
export const ResultQuery = Type.Object({
  format: Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], {
    default: 'jsonl',
    description: 'jsonl (application/x-ndjson) or csv (text/csv)',
  }),
});
