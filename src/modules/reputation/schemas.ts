// TypeBox schemas of the reputation routes: the score entry, the wallet's nine scores, the batch.
import { Type, type Static } from '@sinclair/typebox';
import { CATEGORIES, type Category } from '../scoring/contracts.js';
import { AddressOrEns, EthAddress, Nullable, Timestamp } from '../../platform/http/schemas.js';

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

export const Coverage = Type.Object(
  {
    status: Type.Union([Type.Literal('complete'), Type.Literal('partial'), Type.Literal('none')], {
      description:
        '`complete`: every configured chain was read up to its final block; `partial`: some chain is still being read (the score may ' +
        'change, and `score.updated` fires as each chain completes), or the wallet touched a known lending or trading protocol that is ' +
        'not read (reason `UNREAD_PROTOCOL:<names>`); `none`: no chain has a source configured, nothing on-chain was read ' +
        '(reason `NO_CHAIN_SOURCE`): the score says nothing about on-chain activity.',
    }),
    asOf: Timestamp({ description: 'when this coverage was read' }),
    reason: Nullable(
      Type.String({
        description:
          '`NO_CHAIN_SOURCE` when status is `none`; `UNREAD_PROTOCOL:<names, comma-separated>` when the wallet touched contracts of known ' +
          'protocols that are not read (its history there is not seen); else null',
        examples: ['NO_CHAIN_SOURCE', 'UNREAD_PROTOCOL:curve'],
      }),
    ),
    chains: Type.Array(
      Type.Object(
        {
          chainId: Type.Integer({ description: 'a configured chain (1, 10, 137, 8453, 42161)' }),
          syncedToBlock: Nullable(Type.Integer({ description: "the wallet's history is stored up to this block; null: not read yet" })),
          finalizedBlock: Nullable(
            Type.Integer({ description: 'the final block the last sync read up to (finalized tag or confirmations)' }),
          ),
          complete: Type.Boolean({ description: 'the last sync read everything up to finalizedBlock' }),
          source: Type.String({ description: '`rpc`, `explorer` or `explorer+rpc` (the explorer backfilled, JSON-RPC follows the head)' }),
          protocols: Type.Array(Type.String(), {
            description:
              'the lending and trading protocols whose events are read on this chain, by registry name (for example `aave-v3`, `morpho-blue`, ' +
              '`compound-v2`, `moonwell`, `spark`, `uniswap-v4`, `balancer-v2`): activity on any other protocol is not evidence, and a wallet seen touching a ' +
              'known one that is not read gets status `partial` with reason `UNREAD_PROTOCOL:<names>`',
            examples: [
              [
                'aave-v2',
                'aave-v3',
                'balancer-v2',
                'compound-v2',
                'compound-v3',
                'morpho-blue',
                'spark',
                'uniswap-v2',
                'uniswap-v3',
                'uniswap-v4',
              ],
            ],
          }),
        },
        { title: 'ChainCoverage' },
      ),
    ),
  },
  { title: 'Coverage', description: "How much of the wallet's on-chain history the evidence behind this score covers." },
);

const entryFields = {
  score: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description:
      'conduct held to what the backing supports (600 + 120 x log2(backingUsd / 1000), 0-1000); verification categories (IDENTITY, COMPLIANCE) are not held',
  }),
  conduct: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description:
      'how the wallet behaves, before the backing ceiling (DEFI_LENDING: repaid loans, tenure, leverage, liquidations by recency; size only logarithmically). A lender that sets its own policy on backing reads this.',
    examples: [712],
  }),
  backingUsd: Nullable(
    Type.Number({
      minimum: 0,
      description:
        'USD the wallet lost and cannot get back behind this category: interest net of what the borrowed cash earns parked, pool fees paid to liquidity it does not control, gas of its own evidence. Capital merely held backs nothing. What faking the score would cost. Null for IDENTITY and COMPLIANCE (verification, not cost).',
      examples: [164.5],
    }),
  ),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'decayed at read time: x 0.95^(days since the last new evidence / 30)' }),
  tier: Type.String({
    description: 'Very Low (0-199), Low (200-399), Medium (400-599), High (600-799), Very High (800-1000)',
    examples: ['High'],
  }),
  calculatedAt: Timestamp(),
  modelVersion: Type.String({ description: 'scoring model version (semantic version)', examples: ['1.0.0'] }),
  factors: Type.Optional(
    Type.Array(Factor, { description: 'the top signals that raised or lowered the score (at most 6, largest first)' }),
  ),
  coverage: Type.Optional(Coverage),
};

export const ScoreEntry = Type.Object({ category: CategorySchema, ...entryFields }, { title: 'ScoreEntry' });

export const WalletScores = Type.Object(
  {
    address: EthAddress({ description: 'EIP-55 checksummed' }),
    ensName: Type.Optional(
      Type.String({ description: 'the ENS name the request used, normalized (only when it used one)', examples: ['vitalik.eth'] }),
    ),
    did: Nullable(Type.String({ description: "the wallet's DID, null when none is registered" })),
    accountType: Type.Optional(
      Type.Union([Type.Literal('wallet'), Type.Literal('contract')], {
        description:
          '"contract" for a known protocol contract of the evidence registry (a lending pool, a router such as the Uniswap Universal Router, a governor): it is not scored as a user, every category is 0 with the factor PROTOCOL_CONTRACT. Smart-contract wallets (Safe, ERC-4337) are "wallet".',
      }),
    ),
    contractLabel: Type.Optional(Nullable(Type.String({ description: "the registry's name for a protocol contract, null for a wallet" }))),
    scores: Type.Array(ScoreEntry, { minItems: 9, maxItems: 9, description: 'all nine categories, OVERALL first' }),
    coverage: Type.Optional(Coverage),
  },
  { title: 'WalletScores' },
);

const WalletParam = () => AddressOrEns({ description: 'the wallet: a 0x address or an ENS name' });
export const AddressParams = Type.Object({ address: WalletParam() });
export const CategoryParams = Type.Object({ address: WalletParam(), category: CategorySchema });
export const ExplainQuery = (defaultValue: boolean) =>
  Type.Object({
    explain: Type.Boolean({
      default: defaultValue,
      description: defaultValue ? 'factors are included unless explain=false' : 'explain=true adds `factors` to each entry',
    }),
  });

export const MAX_BATCH = 100;

export const BatchBody = Type.Object({
  addresses: Type.Array(AddressOrEns({ description: 'a 0x address or an ENS name' }), {
    minItems: 1,
    maxItems: MAX_BATCH,
    description: `1-${MAX_BATCH} addresses or ENS names; duplicates are answered (and counted) once per occurrence`,
  }),
  category: CategorySchema,
});
export type BatchBody = Static<typeof BatchBody>;

export const BatchResult = Type.Object(
  {
    address: EthAddress({ description: 'EIP-55 checksummed (the resolved address when the request gave an ENS name)' }),
    ensName: Type.Optional(
      Type.String({ description: 'the ENS name given at this position, normalized (only when one was given)', examples: ['vitalik.eth'] }),
    ),
    ...entryFields,
  },
  { title: 'BatchResult' },
);

export const BatchResponse = Type.Object(
  {
    category: CategorySchema,
    count: Type.Integer({ description: 'number of results (= number of addresses sent)' }),
    results: Type.Array(BatchResult, { description: 'one per requested address, in request order' }),
  },
  { title: 'BatchResponse' },
);
