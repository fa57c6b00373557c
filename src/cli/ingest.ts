// `credence ingest`: boots the app (no workers) and runs the ingestion module's command in it; the module never
// imports the app that assembles it.
import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db/types.js';
import { runIngest } from '../modules/ingestion/cli.js';

/** Runs the command; returns the process exit code. `db` lets tests hand in an already-migrated database. */
export function runIngestCommand(args: string[], config: Config, opts: { db?: Db } = {}): Promise<number> {
  return runIngest(args, config, async (c) => {
    // loaded only once the arguments are checked (`--help` starts nothing)
    const { buildApp } = await import('../app.js');
    return buildApp(c, opts.db ? { db: opts.db } : {});
  });
}
