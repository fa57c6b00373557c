// The nine score categories, alone in a module with no imports: scoring/contracts.ts re-exports them for the
// modules, and the CLI's flag help (cli/specs.ts) reads them without loading any of scoring.
export const CATEGORIES = [
  'OVERALL',
  'DEFI_LENDING',
  'DEFI_TRADING',
  'GOVERNANCE',
  'NFT',
  'IDENTITY',
  'SOCIAL',
  'DEVELOPER',
  'COMPLIANCE',
] as const;
export type Category = (typeof CATEGORIES)[number];
/** Stable numeric ids (circuits and the oracle contract use them); index in CATEGORIES. */
export const categoryId = (c: Category) => CATEGORIES.indexOf(c);
