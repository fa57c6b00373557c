// Feature modules, registered in this order; each wires only itself (routes, service, workers) and sets its members
// of ctx.services (ModuleServices in platform/context.ts), which other modules' services take, typed and required.
import type { App, Module } from '../platform/http/types.js';
import type { AppContext, ModuleServices } from '../platform/context.js';
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
  // before scoring, which reads its features and subscribes to its finished syncs
  ingestionModule,
  scoringModule,
  reputationModule,
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

/** Who sets each member of ModuleServices: listing a member twice or leaving one out fails to compile. */
const SETTERS: Record<keyof ModuleServices, Module> = {
  scoring: scoringModule,
  scoreChanges: scoringModule,
  ingestion: ingestionModule,
  proofs: proofsModule,
  proofsSetup: proofsModule,
  proofQueue: proofsModule,
  oracle: proofsModule,
  identity: identityModule,
  kycBackedCredentials: identityModule,
  compliance: complianceModule,
  kyc: complianceModule,
  kycFacts: complianceModule,
  ageChecks: complianceModule,
  sanctions: sanctionsModule,
  debtClaims: debtClaimsModule,
  webhooks: webhooksModule,
};

/** An empty ModuleServices for a new context: registerModules fills it, and nothing reads it before. */
export const unregisteredServices = () => ({}) as ModuleServices;

/** Registers every module in order; then every service another module takes is there, or the app does not start. */
export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  for (const m of modules) await m.register(app, ctx);
  const missing = Object.entries(SETTERS).filter(([name]) => ctx.services[name as keyof ModuleServices] === undefined);
  if (missing.length > 0) throw new Error(`modules left services unset: ${missing.map(([n, m]) => `${n} (${m.name})`).join(', ')}`);
}
