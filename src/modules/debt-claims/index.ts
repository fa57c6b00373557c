// Wires the debt-claims module: its routes, and the claim signals the scoring model reads (ctx.services.debtClaims).
import type { Module } from '../../platform/http/types.js';
import { createClaimsRepo } from './repo.js';
import { registerClaimRoutes } from './routes.js';
import { createDebtClaimsService } from './service.js';

export const debtClaimsModule: Module = {
  name: 'debt-claims',
  register(app, ctx) {
    const svc = createDebtClaimsService({
      db: ctx.db,
      repo: createClaimsRepo(ctx.db),
      limiter: ctx.limiter,
      limits: { perIpPerMinute: ctx.config.claimsPerIpPerMinute, perCreditorPerMinute: ctx.config.claimsPerCreditorPerMinute },
      strictOwnership: ctx.config.strictOwnership,
      scoring: () => ctx.services.scoring,
      log: ctx.log,
    });
    ctx.services.debtClaims = svc.signals;
    registerClaimRoutes(app, svc);
  },
};
