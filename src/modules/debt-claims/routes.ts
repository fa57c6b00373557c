// HTTP routes of the debt-claims module, one file each under routes/. Their scope parses JSON keeping `amount`
// exact and serializes exact decimals as JSON numbers; this registers them in the OpenAPI document's order.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { DebtClaimsService } from './service.js';
import { exactDecimalJson } from './routes/shared.js';
import { createClaim } from './routes/create-claim.js';
import { getClaim } from './routes/get-claim.js';
import { listByDebtor } from './routes/list-by-debtor.js';
import { listByCreditor } from './routes/list-by-creditor.js';
import { disputeClaim } from './routes/dispute-claim.js';
import { resolveClaim } from './routes/resolve-claim.js';
import { withdrawClaim } from './routes/withdraw-claim.js';

const ROUTES = [createClaim, getClaim, listByDebtor, listByCreditor, disputeClaim, resolveClaim, withdrawClaim];

export function registerClaimRoutes(app: App, svc: DebtClaimsService) {
  app.register(
    async (plugin) => {
      const s = plugin.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
      exactDecimalJson(s);
      for (const route of ROUTES) route(s, svc);
    },
    { prefix: '/api/v1' },
  );
}
