// Billing: API keys (and the resolver the auth hook uses), usage, checkout and payment events.
import type { Module } from '../../platform/http/types.js';
import { createBillingRepo } from './repo.js';
import { createKeyService, principalOf } from './keys.js';
import { createPayments } from './payments.js';
import { billingRoutes } from './routes.js';

export const billingModule: Module = {
  name: 'billing',
  register(app, ctx) {
    const repo = createBillingRepo(ctx.db);
    ctx.apiKeys.resolve = async (hash) => {
      const row = await repo.keyByHash(hash);
      return row ? principalOf(row) : null;
    };
    billingRoutes(app, ctx, createKeyService(ctx, repo), createPayments(ctx, repo));
  },
};
