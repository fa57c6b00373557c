// The one reader of data/scoring/: the model's parameters (model.json, costs.json's ceiling, backing.json), the
// features statement's costs, the reviewed NFT collections and established pools. Read and checked once, the first
// time this file is imported; the pure model is handed MODEL_PARAMS (createModel) and never reads a file itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import { createModel, ModelParamsSchema, type Model, type ModelParams } from './model/index.js';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data/scoring');

function read<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as T;
}

/** What a point costs in the features statement (data/scoring/costs.json). */
export interface FeatureCosts {
  trading: { unvaluedSwapUsd: number; dayFeeCapUsd: number; dayFeeFloorUsd: number };
  governance: { voteFloorTokens: number; fullPowerTokens: number };
  social: { nativeFloorWei: string };
  nft: { independentHolders: number };
}

const costs = read<FeatureCosts & { ceiling: ModelParams['ceiling'] }>('costs.json');

/** Parameters checked against their shape: a reviewer's typo stops the start naming the field. */
export function parseModelParams(raw: unknown): ModelParams {
  const error = Value.Errors(ModelParamsSchema, raw).First();
  if (error) throw new Error(`data/scoring: ${error.path || '/'} ${error.message} (model.json, costs.json "ceiling", backing.json)`);
  return raw as ModelParams;
}

/** The model's parameters: model.json, with costs.json's ceiling and backing.json. */
export function loadModelParams(): ModelParams {
  return parseModelParams({ ...read<object>('model.json'), ceiling: costs.ceiling, backing: read<object>('backing.json') });
}

export const MODEL_PARAMS: ModelParams = loadModelParams();
export const COSTS: FeatureCosts = costs;

/** The model every score is computed with. */
export const model: Model = createModel(MODEL_PARAMS);

/** The reviewed NFT collections and established pools, as `${chainId}:${address}` (data/scoring/). */
export const LISTED_COLLECTIONS: readonly string[] = read<{ collections: { chainId: number; address: string }[] }>(
  'nft-collections.json',
).collections.map((c) => `${c.chainId}:${c.address.toLowerCase()}`);
export const ESTABLISHED_POOLS: readonly string[] = read<{ pools: { chainId: number; address: string }[] }>(
  'established-pools.json',
).pools.map((p) => `${p.chainId}:${p.address.toLowerCase()}`);

/** The debt claims' constants under the names the claims' routes and documentation use (model.json "debtClaims"). */
export const {
  pendingPerCreditor: PENDING_PER_CREDITOR,
  pendingCap: PENDING_CAP,
  unverifiedPerCreditor: UNVERIFIED_PER_CREDITOR,
  unverifiedCap: UNVERIFIED_CAP,
  creditorMinWeight: CREDITOR_MIN_WEIGHT,
} = MODEL_PARAMS.debtClaims;
/** Weight of an unverified claim relative to a verified one (shown on the claim resource). */
export const UNVERIFIED_WEIGHT = PENDING_PER_CREDITOR > 0 ? UNVERIFIED_PER_CREDITOR / PENDING_PER_CREDITOR : 0;
