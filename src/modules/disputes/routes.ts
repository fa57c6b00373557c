// HTTP routes of the disputes module, one file each under routes/ (its schema, its auth and one service call);
// this registers them in the OpenAPI document's order.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { JwtService } from '../../platform/auth/jwt.js';
import type { DisputesService } from './service.js';
import { createDispute } from './routes/create-dispute.js';
import { getDispute } from './routes/get-dispute.js';
import { listWalletDisputes } from './routes/list-wallet-disputes.js';
import { listDisputeQueue } from './routes/list-dispute-queue.js';
import { updateDisputeStatus } from './routes/update-dispute-status.js';
import { escalateDispute } from './routes/escalate-dispute.js';
import { withdrawDispute } from './routes/withdraw-dispute.js';

const ROUTES = [createDispute, getDispute, listWalletDisputes, listDisputeQueue, updateDisputeStatus, escalateDispute, withdrawDispute];

export function registerDisputeRoutes(app: App, svc: DisputesService, jwt: JwtService) {
  app.register(
    async (plugin) => {
      const s = plugin.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
      for (const route of ROUTES) route(s, { svc, jwt });
    },
    { prefix: '/api/v1' },
  );
}
