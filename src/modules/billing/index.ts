// Billing: API keys (and the resolver the auth hook uses), usage, checkout, plans and payment events.
import type { Module } from '../../platform/http/types.js';
import { createBillingRepo } from './repo.js';
import { createKeyService, createKeyUseRecorder, principalOf } from './keys.js';
import { createPayments } from './payments.js';
import { billingRoutes } from './routes.js';

export const billingModule: Module = {
  name: 'billing',
  register(app, ctx) {
    const repo = createBillingRepo(ctx.db);
    const uses = createKeyUseRecorder(repo, ctx.log);
    ctx.apiKeys.resolve = async (hash) => {
      const row = await repo.keyByHash(hash);
      // found through the previous secret of a rotated key: that secret ends with its grace period
      return row ? principalOf(row, row.key_hash !== hash) : null;
    };
    ctx.apiKeys.touch = (keyId) => uses.touch(keyId);
    ctx.onClose(() => uses.close());
    billingRoutes(app, ctx, repo, createKeyService(ctx, repo), createPayments(ctx, repo));
  },
};
