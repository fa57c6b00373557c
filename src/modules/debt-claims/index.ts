// Wires the debt-claims module: its routes, the claim signals the scoring model reads (ModuleServices.debtClaims),
// the evidence checker (chain RPCs from settings) and the claims worker that finishes every claim's job.
import type { Module } from '../../platform/http/types.js';
import { model } from '../scoring/contracts.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import { DEBT_CLAIM_FILED } from './events.js';
import { createEvidenceChecker } from './evidence.js';
import { createClaimJobs } from './jobs.js';
import { createClaimsRepo } from './repo.js';
import { registerClaimRoutes } from './routes.js';
import { createDebtClaimsService } from './service.js';

/** How often the claims worker looks for jobs a dead instance left behind or a retry made due. */
const SWEEP_INTERVAL_MS = 2_000;

export const debtClaimsModule: Module = {
  name: 'debt-claims',
  register(app, ctx) {
    const repo = createClaimsRepo(ctx.db);
    const cfg = ctx.config;
    const checker = createEvidenceChecker({
      rpcUrls: cfg.rpcUrls,
      rules: () => ({ minAgeMs: cfg.claimMinEvidenceAgeHours * 3_600_000, minPrincipalUsd: cfg.claimMinPrincipalUsd }),
    });
    // The creditor's weight: its own current scores in the costly categories (computed first if never scored).
    const weigh = async (creditor: string) => model.creditorWeight(await ctx.services.scoring.getScores(creditor));
    // hub clients subscribed to the debtor (best-effort, every instance through the bus), of the claim's environment
    const announce = (e: { address: string; data: Record<string, unknown> }) =>
      ctx.bus.publish(DEBT_CLAIM_FILED, { address: e.address, data: e.data, environment: currentEnvironment() });
    const noticeHours = cfg.claimNoticeHours;
    const jobs = createClaimJobs({
      repo,
      db: ctx.db,
      checker,
      weigh,
      noticeHours: () => noticeHours,
      services: ctx.services,
      announce,
      log: ctx.log,
      sweepIntervalMs: SWEEP_INTERVAL_MS,
    });
    ctx.workers.push(jobs.worker);
    // Jobs kicked by requests finish before the database closes (hooks run in reverse order of registration).
    ctx.onClose(async () => {
      await jobs.drain();
      await checker.close();
    });
    const svc = createDebtClaimsService({
      db: ctx.db,
      repo,
      limiter: ctx.limiter,
      limits: { perIpPerMinute: ctx.config.claimsPerIpPerMinute, perCreditorPerMinute: ctx.config.claimsPerCreditorPerMinute },
      strictOwnership: ctx.config.strictOwnership,
      services: ctx.services,
      jobs,
      log: ctx.log,
      noticeHours,
      announce,
    });
    ctx.services.debtClaims = svc.signals;
    registerClaimRoutes(app, svc);
  },
};
