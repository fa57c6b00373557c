// The API's enumerations as values, for a select, a filter or a loop: openapi-typescript emits them as types only
// (src/schema.ts). Each array is held to its generated type both ways: a value the document drops no longer
// compiles, and one it adds fails the build with `missing` naming it, until this list follows the document.
// Order: the document's. A category's index is its id in proofs (the public signal `category` of
// ScoreAboveThreshold), so CATEGORIES[id] names a proof's category.
import type { components } from './schema.js';

type Schemas = components['schemas'];
/** One of the nine score categories, exactly as written (upper case). */
export type Category = Schemas['ScoreEntry']['category'];
/** A dispute's status (`Under Review` and `Evidence Requested` spaced, as the API answers them). */
export type DisputeStatus = Schemas['Dispute']['status'];
/** Why a dispute is filed. */
export type DisputeReason = Schemas['Dispute']['reason'];

/** `values`, unchanged, when it lists every member of `U` and nothing else; otherwise a compile error. */
const every =
  <U extends string>() =>
  <const T extends readonly U[]>(values: T & ([Exclude<U, T[number]>] extends [never] ? unknown : { missing: Exclude<U, T[number]> })): T =>
    values;

export const CATEGORIES = every<Category>()([
  'OVERALL',
  'DEFI_LENDING',
  'DEFI_TRADING',
  'GOVERNANCE',
  'NFT',
  'IDENTITY',
  'SOCIAL',
  'DEVELOPER',
  'COMPLIANCE',
]);

export const DISPUTE_STATUSES = every<DisputeStatus>()([
  'Pending',
  'Under Review',
  'Evidence Requested',
  'Resolved',
  'Rejected',
  'Escalated',
  'Withdrawn',
]);

export const DISPUTE_REASONS = every<DisputeReason>()([
  'InaccurateScore',
  'MissingActivity',
  'IncorrectCategory',
  'DataOutdated',
  'WrongWallet',
  'FraudulentData',
  'ComplianceError',
  'Other',
]);

/** Whether `value` is one of the nine categories (a string from a URL, a form or a proof). */
export const isCategory = (value: unknown): value is Category => (CATEGORIES as readonly unknown[]).includes(value);
