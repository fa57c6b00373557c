// When a failed delivery is tried again, and when a failing endpoint is probed next: the configured schedule
// with jitter, never sooner than the receiver's Retry-After.

/** Failures in a row after which an endpoint is deactivated (its pending deliveries are kept). */
export const MAX_CONSECUTIVE_FAILURES = 10;

/** Delay before the next try after `failedAttempts` failures: the schedule, +-10 % jitter, at least Retry-After. */
export function retryDelay(schedule: number[], failedAttempts: number, retryAfter: number | null, random = Math.random): number | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  const jittered = base * (0.9 + 0.2 * random());
  // A receiver asking for more time gets it, within a day.
  return retryAfter !== null ? Math.max(jittered, Math.min(retryAfter, 86_400)) : jittered;
}

/** Delay before a failing endpoint's next probe: the schedule by its failures in a row (the last step repeats). */
export function probeDelay(schedule: number[], failures: number, retryAfter: number | null, random = Math.random): number {
  return retryDelay(schedule, Math.min(failures, schedule.length), retryAfter, random) ?? retryAfter ?? 60;
}
