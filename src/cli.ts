// The `credence` command line. Each command parses settings once and fails fast on a bad value.
import { loadConfig, ConfigError, type Config } from './platform/config.js';
import { VERSION } from './version.js';

type Command = {
  summary: string;
  /** Shown by `credence <command> --help`; the summary when absent. */
  usage?: string;
  run(args: string[], config: Config): Promise<void>;
};

const commands: Record<string, Command> = {
  serve: {
    summary: 'serve the API, the hub and the background workers (roles from CREDENCE_ROLES)',
    usage: '\n\nListens on HOST:PORT (default 0.0.0.0:8080); SIGTERM or SIGINT shut it down gracefully.',
    async run(_args, config) {
      const { serve } = await import('./server.js');
      await serve(config);
    },
  },
  secrets: {
    summary: 'generate: print the six secrets a multi-instance deployment shares, in their formats (for .env)',
    usage: 'generate [--format env|json]',
    async run(args) {
      const { runSecretsCommand } = await import('./platform/secrets-cli.js');
      process.exitCode = runSecretsCommand(args);
    },
  },
  sanctions: {
    summary: 'OFAC SDN list: import <file> (sdn_advanced.xml or sdn.csv), refresh, status',
    usage: 'import <file> | refresh | status',
    async run(args, config) {
      const { runSanctionsCommand } = await import('./modules/sanctions/cli.js');
      await runSanctionsCommand(args, config);
    },
  },
  ingest: {
    summary: 'import an ethereum-etl export (--format ethereum-etl <dir>) or sync wallets over JSON-RPC (--wallet <address>)',
    usage: '--format ethereum-etl [--chain N] [--no-score] <dir> | --wallet <address>',
    async run(args, config) {
      const { runIngestCommand } = await import('./modules/ingestion/cli.js');
      process.exitCode = await runIngestCommand(args, config);
    },
  },
  contracts: {
    summary: 'deploy the on-chain contracts: deploy --admin <addr,...> [--governance <addr,...>] [--operator <addr,...>] [--circuits <dir>] (CREDENCE_CHAIN_RPC_URL, CREDENCE_SIGNER_KEY; verifiers of the keys in --circuits, else CREDENCE_CIRCUITS_DIR, else the committed build)',
    async run(args, config) {
      const { runContractsCommand } = await import('./modules/proofs/cli.js');
      await runContractsCommand(args, config);
    },
  },
  ceremony: {
    summary: 'multi-party trusted setup of the proof keys: init, contribute, beacon, verify, finalize (see docs/proofs.md)',
    async run(args) {
      const { runCeremonyCommand } = await import('./modules/proofs/ceremony-cli.js');
      await runCeremonyCommand(args);
    },
  },
  migrate: {
    summary: 'apply database migrations and exit',
    usage: '(no arguments)',
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

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

function usage(out: (s: string) => void) {
  out(`usage: credence <command> [args]   (credence ${VERSION})\n`);
  for (const [n, c] of Object.entries(commands)) out(`  ${n.padEnd(12)} ${c.summary}`);
  out('\n  credence <command> --help   help on one command (starts nothing)\n  credence --version          print the version');
  out('\nSettings are environment variables (see the README); a bad value stops the command with a clear message.');
}

async function main() {
  const [name, ...args] = process.argv.slice(2);
  // Help and version never read settings, open the database or start anything.
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(VERSION);
    return;
  }
  if (name === undefined || HELP_FLAGS.has(name)) {
    usage(console.log);
    return;
  }
  const cmd = commands[name];
  if (!cmd) {
    console.error(`credence: unknown command "${name}"\n`);
    usage(console.error);
    process.exit(2);
  }
  if (args.some((a) => a === '--help' || a === '-h')) {
    console.log(`usage: credence ${name} ${cmd.usage ?? ''}\n\n${cmd.summary}`);
    return;
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
  try {
    await cmd.run(args, config);
  } catch (e) {
    // Another process holds the embedded database (platform/db/lock.ts): a clear refusal, not a stack trace.
    if (e instanceof Error && e.name === 'DataDirLocked') {
      console.error(`credence ${name}: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}

await main();
