// Webhook delivery: which receivers may be reached, the retry schedule, and the lease of a claimed delivery.
import { ConfigError, bool, int, str, type Env } from './env.js';

export interface WebhookSettings {
  webhookAllowPrivate: boolean;
  webhookRetrySchedule: number[];
  /** How long a claimed webhook delivery stays invisible to other workers (an instance that died mid-send). */
  webhookLeaseSeconds: number;
}

export function webhookSettings(env: Env): WebhookSettings {
  const schedule = (str(env, 'CREDENCE_WEBHOOK_RETRY_SCHEDULE') ?? '5,300,1800,7200,18000,36000,36000,36000,36000').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isFinite(n) || n < 0) throw new ConfigError(`CREDENCE_WEBHOOK_RETRY_SCHEDULE: "${s}" is not a number of seconds`);
    return n;
  });
  return {
    webhookAllowPrivate: bool(env, 'CREDENCE_WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetrySchedule: schedule,
    // above the 10 s send time-out, so a slow send is never handed to a second worker
    webhookLeaseSeconds: int(env, 'CREDENCE_WEBHOOK_LEASE_SECONDS', 60, 15, 3600),
  };
}
