// GET /billing/usage: this key's queries this month against its quota.
import type { App } from '../../../platform/http/types.js';
import { UsageResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function getUsage(s: App, { keys }: BillingRouteDeps): void {
  s.get(
    '/billing/usage',
    {
      config: { auth: 'apiKey', sandbox: true, cost: 0 },
      schema: {
        operationId: 'billing.getUsage',
        tags: ['Billing'],
        summary: 'Usage of this API key this month',
        description:
          'Queries counted this calendar month (UTC) against the tier quota. Counts 0 queries. Enterprise: monthlyLimit and remaining are null.',
        response: { 200: UsageResponse },
      },
    },
    async (req) => keys.usage(req.apiKey!),
  );
}
