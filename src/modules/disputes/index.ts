// Wires the disputes module: routes, and the worker that retries on-chain escalation submissions.
import type { Module } from '../../platform/http/types.js';
import { createDisputesRepo } from './repo.js';
import { registerDisputeRoutes } from './routes.js';
import { createDisputesService } from './service.js';

const RETRY_INTERVAL_MS = 60_000;

export const disputesModule: Module = {
  name: 'disputes',
  register(app, ctx) {
    const svc = createDisputesService({
      db: ctx.db,
      repo: createDisputesRepo(ctx.db),
      strictOwnership: ctx.config.strictOwnership,
      services: ctx.services,
      log: ctx.log,
    });
    registerDisputeRoutes(app, svc, ctx.jwt);

    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> | null = null;
    ctx.workers.push({
      name: 'dispute-escalations',
      start() {
        const pass = () => {
          if (running || !ctx.services.oracle) return;
          running = svc
            .retryEscalations()
            .catch((err) => ctx.log.error({ err }, 'escalation retry pass failed'))
            .finally(() => (running = null));
        };
        // one pass at start picks up submissions a previous process left behind
        pass();
        timer = setInterval(pass, RETRY_INTERVAL_MS);
        timer.unref();
      },
      async stop() {
        if (timer) clearInterval(timer);
        timer = null;
        await running;
      },
    });
  },
};
