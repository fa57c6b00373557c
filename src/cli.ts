// The `credence` command line. Each command parses settings once and fails fast on a bad value.
import { loadConfig, ConfigError, type Config } from './platform/config.js';

type Command = { summary: string; run(args: string[], config: Config): Promise<void> };

const commands: Record<string, Command> = {
  serve: {
    summary: 'serve the API, the hub and the background workers (roles from CREDENCE_ROLES)',
    async run(_args, config) {
      const { serve } = await import('./server.js');
      await serve(config);
    },
  },
  sanctions: {
    summary: 'OFAC SDN list: import <file> (sdn_advanced.xml or sdn.csv), refresh, status',
    async run(args, config) {
      const { runSanctionsCommand } = await import('./modules/sanctions/cli.js');
      await runSanctionsCommand(args, config);
    },
  },
  ingest: {
    summary: 'import an ethereum-etl export (--format ethereum-etl <dir>) or sync wallets over JSON-RPC (--wallet <address>)',
    async run(args, config) {
      const { runIngestCommand } = await import('./modules/ingestion/cli.js');
      process.exitCode = await runIngestCommand(args, config);
    },
  },
  contracts: {
    summary: 'deploy the on-chain contracts: deploy [--governance <addr,...>] [--operator <addr,...>] (CREDENCE_CHAIN_RPC_URL, CREDENCE_SIGNER_KEY)',
    async run(args, config) {
      const { runContractsCommand } = await import('./modules/proofs/cli.js');
      await runContractsCommand(args, config);
    },
  },
  migrate: {
    summary: 'apply database migrations and exit',
    async run(_args, config) {
      const { openDatabase } = await import('./platform/db/index.js');
      const { migrate } = await import('./platform/db/migrate.js');
      const db = await openDatabase(config.databaseUrl, config.dataDir);
      const applied = await migrate(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      await db.close();
    },
  },
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const cmd = name ? commands[name] : undefined;
  if (!cmd) {
    console.log('usage: credence <command> [args]\n');
    for (const [n, c] of Object.entries(commands)) console.log(`  ${n.padEnd(12)} ${c.summary}`);
    process.exit(name && name !== 'help' ? 2 : 0);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`credence: invalid setting: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  await cmd.run(args, config);
}

await main();
