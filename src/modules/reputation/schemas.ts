// TypeBox schemas of the reputation routes: the score entry, the wallet's nine scores, the batch.
import { Type, type Static } from '@sinclair/typebox';
import { CATEGORIES, type Category } from '../scoring/contracts.js';
import { EthAddress, Nullable, Timestamp } from '../../platform/http/schemas.js';

export const CategorySchema = Type.Unsafe<Category>({
  type: 'string',
  enum: [...CATEGORIES],
  description: 'One of the nine score categories, exactly as written (upper case).',
});

export const Factor = Type.Object(
  {
    code: Type.String({ description: 'stable reason code, e.g. LOAN_REPAYMENTS, DEBT_CLAIM_PENDING', examples: ['LOAN_REPAYMENTS'] }),
    description: Type.String({ description: 'human-readable explanation with the numbers behind it' }),
    impact: Type.Integer({ description: 'signed points this signal added to (or took from) the score' }),
  },
  { title: 'Factor' },
);

const entryFields = {
  score: Type.Integer({ minimum: 0, maximum: 1000 }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'decayed at read time: x 0.95^(days since the last new evidence / 30)' }),
  tier: Type.String({ description: 'Very Low (0-199), Low (200-399), Medium (400-599), High (600-799), Very High (800-1000)', examples: ['High'] }),
  calculatedAt: Timestamp(),
  modelVersion: Type.String({ description: 'scoring model version (semantic version)', examples: ['1.0.0'] }),
  factors: Type.Optional(Type.Array(Factor, { description: 'the top signals that raised or lowered the score (at most 6, largest first)' })),
};

export const ScoreEntry = Type.Object({ category: CategorySchema, ...entryFields }, { title: 'ScoreEntry' });

export const WalletScores = Type.Object(
  {
    address: EthAddress({ description: 'EIP-55 checksummed' }),
    did: Nullable(Type.String({ description: "the wallet's DID, null when none is registered" })),
    scores: Type.Array(ScoreEntry, { minItems: 9, maxItems: 9, description: 'all nine categories, OVERALL first' }),
  },
  { title: 'WalletScores' },
);

export const AddressParams = Type.Object({ address: EthAddress() });
export const CategoryParams = Type.Object({ address: EthAddress(), category: CategorySchema });
export const ExplainQuery = (defaultValue: boolean) =>
  Type.Object({
    explain: Type.Boolean({
      default: defaultValue,
      description: defaultValue ? 'factors are included unless explain=false' : 'explain=true adds `factors` to each entry',
    }),
  });

export const MAX_BATCH = 100;

export const BatchBody = Type.Object({
  addresses: Type.Array(EthAddress(), { minItems: 1, maxItems: MAX_BATCH, description: `1-${MAX_BATCH} addresses; duplicates are answered (and counted) once per occurrence` }),
  category: CategorySchema,
});
export type BatchBody = Static<typeof BatchBody>;

export const BatchResult = Type.Object({ address: EthAddress({ description: 'EIP-55 checksummed' }), ...entryFields }, { title: 'BatchResult' });

export const BatchResponse = Type.Object(
  {
    category: CategorySchema,
    count: Type.Integer({ description: 'number of results (= number of addresses sent)' }),
    results: Type.Array(BatchResult, { description: 'one per requested address, in request order' }),
  },
  { title: 'BatchResponse' },
);
