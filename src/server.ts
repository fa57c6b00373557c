// Listens, and shuts down gracefully on SIGINT/SIGTERM (in-flight requests finish, workers stop, counts flush).
import { buildApp } from './app.js';
import type { Db } from './platform/db/index.js';
import { warmSchemas } from './platform/http/lazy-schemas.js';
import { activeLocalProviders, type Config } from './platform/config.js';
import { startBanner } from './platform/start-banner.js';
import { VERSION } from './version.js';

/**
 * `started` is called once the instance is up and its schemas are compiled (the young generation may grow again).
 * `db`: the database already being opened (the command opens it while this module loads); else it is opened here.
 */
export async function serve(config: Config, started: () => void = () => undefined, db?: Promise<Db>): Promise<void> {
  const app = await buildApp(config, db ? { db: await db } : {});
  app.server.keepAliveTimeout = 72_000;
  app.server.headersTimeout = 75_000;
  app.server.requestTimeout = 30_000;
  await app.listen({ port: config.port, host: config.host });
  // the route schemas no request needed yet, compiled between requests (a bad one is logged within a second)
  warmSchemas()
    .catch((err) => app.log.error({ err }, 'a route schema does not compile'))
    .finally(started);
  // Said at every start: these providers upgrade keys and approve KYC for free (development only).
  const local = activeLocalProviders(config);
  if (local.length > 0) {
    app.log.warn(
      { localProviders: local, host: config.host },
      `built-in local providers are ON (${local.join(', ')}): anyone who reaches them upgrades keys or approves KYC for free; ` +
        `listening on ${config.host}${config.host === '127.0.0.1' ? ' only (set HOST to change it)' : ''}. Production: CREDENCE_LOCAL_PROVIDERS=false with STRIPE_SECRET_KEY and CREDENCE_KYC_* set.`,
    );
  }
  // last, so it is what a terminal shows once started
  const banner = startBanner(config, VERSION);
  if (process.stdout.isTTY) console.log(`\n${banner.text}\n`);
  else app.log.info(banner.fields, banner.text.split('\n')[0]);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
