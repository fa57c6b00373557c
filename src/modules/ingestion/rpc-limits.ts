// What an endpoint accepts for eth_getLogs, learned once and kept for the life of the process (every source of
// the same URL shares it): the cap it states ("limit of 10000 blocks"), else the largest span it answered and the
// smallest it refused for the span's size. The next span never goes past a refused size: with a stated cap it is
// the cap; without one it is a binary search between the two bounds that settles after a few refusals.
// Refusals for the size of the result set ("more than 10000 results") depend on how busy a range is, and timeouts
// ("query timeout exceeded", a 504) on the node's load as well: both are handled per sync (sync.ts), never learned
// here, so a slow moment does not cap the endpoint for the life of the process. Only `cause: 'span'` refusals
// (rpc-errors.ts) reach `refused`.

export interface RangeLimitsSnapshot {
  statedCap: number | null;
  okMax: number | null;
  refusedMin: number | null;
}

export interface RangeLimits {
  readonly key: string;
  /** the span to ask for now */
  span(): number;
  /** a range of this span was answered */
  accepted(span: number): void;
  /** a range of this span was refused for its span; `statedCap` when the message says the limit */
  refused(span: number, statedCap: number | null): void;
  snapshot(): RangeLimitsSnapshot;
}

/** No chain needs more: a range larger than the chain is clipped to the chain anyway. */
export const UNLIMITED_RANGE = 1_000_000_000;

const endpoints = new Map<string, RangeLimitsSnapshot>();

/** Limits of an endpoint (URL; query strings and paths carry API keys, so the key never leaves the process). */
export function limitsFor(url: string, maxRange = UNLIMITED_RANGE): RangeLimits {
  let s = endpoints.get(url);
  if (!s) endpoints.set(url, (s = { statedCap: null, okMax: null, refusedMin: null }));
  const state = s;
  return {
    key: url,
    span() {
      if (state.statedCap) return Math.min(maxRange, state.statedCap);
      if (state.refusedMin === null) return maxRange;
      const ok = state.okMax ?? 0;
      // close enough: stay at the largest span answered
      if (ok > 0 && state.refusedMin - ok <= Math.max(1, Math.floor(ok / 10))) return Math.min(maxRange, ok);
      return Math.max(1, Math.min(maxRange, ok > 0 ? Math.floor((ok + state.refusedMin) / 2) : Math.floor(state.refusedMin / 2)));
    },
    accepted(span) {
      if (span > (state.okMax ?? 0)) state.okMax = span;
      // the provider raised its limit (or a refusal was a fluke): forget the old bound
      if (state.refusedMin !== null && state.okMax! >= state.refusedMin) state.refusedMin = null;
    },
    refused(span, statedCap) {
      if (statedCap && statedCap < span) {
        state.statedCap = statedCap;
        return;
      }
      if (state.statedCap && span <= state.statedCap) state.statedCap = null; // the stated cap was wrong
      state.refusedMin = state.refusedMin === null ? span : Math.min(state.refusedMin, span);
      if (state.okMax !== null && state.okMax >= state.refusedMin) state.okMax = null;
    },
    snapshot: () => ({ ...state }),
  };
}

/** Forgets every learned limit (tests start from an unknown provider). */
export function resetLearnedLimits(): void {
  endpoints.clear();
}
