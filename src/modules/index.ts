// Feature modules, registered in this order; each wires only itself (routes, service, workers).
import type { Module } from '../platform/http/types.js';
import { healthModule } from './health/index.js';
import { authModule } from './auth/index.js';
import { billingModule } from './billing/index.js';
import { scoringModule } from './scoring/index.js';
import { reputationModule } from './reputation/index.js';
import { ingestionModule } from './ingestion/index.js';
import { proofsModule } from './proofs/index.js';
import { identityModule } from './identity/index.js';
import { complianceModule } from './compliance/index.js';
import { sanctionsModule } from './sanctions/index.js';
import { disputesModule } from './disputes/index.js';
import { debtClaimsModule } from './debt-claims/index.js';
import { webhooksModule } from './webhooks/index.js';
import { hubModule } from './hub/index.js';
import { auditModule } from './audit/index.js';
import { consoleModule } from './console/index.js';

export const modules: Module[] = [
  healthModule,
  authModule,
  billingModule,
  scoringModule,
  reputationModule,
  ingestionModule,
  proofsModule,
  identityModule,
  complianceModule,
  sanctionsModule,
  disputesModule,
  debtClaimsModule,
  webhooksModule,
  hubModule,
  auditModule,
  // the web console's built files at / and /console (last: its routes are no one else's)
  consoleModule,
];
