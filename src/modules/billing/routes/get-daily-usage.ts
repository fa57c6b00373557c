// GET /billing/usage/daily: this key's queries per UTC day.
import type { App } from '../../../platform/http/types.js';
import { DailyUsageQuery, DailyUsageResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function getDailyUsage(s: App, { keys }: BillingRouteDeps): void {
  s.get(
    '/billing/usage/daily',
    {
      config: { auth: 'apiKey', sandbox: true, cost: 0 },
      schema: {
        operationId: 'billing.getDailyUsage',
        tags: ['Billing'],
        summary: 'Usage of this API key per day',
        description:
          'Queries counted per UTC day over the last `days` days (default 30, at most 90), oldest first and today last, each with `monthToDate`: ' +
          "its month's running total, which the plan's `monthlyLimit` caps (null: unlimited). Days without queries are 0; a fixed window, not a paged list. " +
          'Counts 0 queries.',
        querystring: DailyUsageQuery,
        response: { 200: DailyUsageResponse },
      },
    },
    async (req) => keys.dailyUsage(req.apiKey!, req.query.days ?? 30),
  );
}
