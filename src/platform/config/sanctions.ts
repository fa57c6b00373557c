// Sanctions screening: where the OFAC list is refreshed from, how often, when it counts as stale, and the
// shipped snapshot for an instance that cannot reach it.
import { bool, int, url, type Env } from './env.js';

export interface SanctionsSettings {
  sanctionsUrl: string | null;
  sanctionsRefreshHours: number;
  /** A list in force published longer ago than this is reported stale (readiness, metrics, admin status). */
  sanctionsMaxAgeDays: number;
  /** Load the shipped OFAC SDN snapshot (data/sanctions) at start when no list is loaded. */
  sanctionsSnapshot: boolean;
}

export function sanctionsSettings(env: Env): SanctionsSettings {
  return {
    sanctionsUrl: url(env, 'CREDENCE_SANCTIONS_URL', ['http:', 'https:']),
    sanctionsRefreshHours: int(env, 'CREDENCE_SANCTIONS_REFRESH_HOURS', 24, 1, 24 * 30),
    sanctionsMaxAgeDays: int(env, 'CREDENCE_SANCTIONS_MAX_AGE_DAYS', 30, 1, 3650),
    sanctionsSnapshot: bool(env, 'CREDENCE_SANCTIONS_SNAPSHOT', true),
  };
}
