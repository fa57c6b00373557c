// The `credence` command line: the operator commands (serve, migrate, ingest, ...), which read the service's
// settings, and the integrator commands (login, keys, score, proof, webhooks, trigger), which talk to a running
// service through the SDK. Every command declares its flags: an unknown flag or command is an error (exit 2)
// with the closest known spelling (cli/args.ts).
import { loadConfig, ConfigError, type Config } from './platform/config.js';
import { VERSION } from './version.js';
import { UsageError, helpText, parseCommand, suggest, type CommandSpec, type Parsed } from './cli/args.js';
// the integrator commands' flags; their code (and the SDK) loads only when one runs
import { keysSpec, loginSpec, proofSpec, scoreSpec, triggerSpec, webhooksSpec } from './cli/specs.js';

type Command = CommandSpec & {
  /** operator commands read the service's settings; integrator commands do not */
  operator?: boolean;
  run(p: Parsed, args: string[], config: Config | null): Promise<void>;
};

const flag = (description: string, value?: string) => ({ type: 'string' as const, description, ...(value ? { value } : {}) });
const bool = (description: string) => ({ type: 'boolean' as const, description });
const sub = (summary: string, o: Partial<CommandSpec> = {}): CommandSpec => ({ summary, ...o });

const operator: Record<string, Command> = {
  serve: {
    operator: true,
    summary: 'serve the API, the hub and the background workers (roles from CREDENCE_ROLES)',
    flags: {
      port: flag('port to listen on (sets PORT; default 8080)', '<port>'),
      host: flag('address to listen on (sets HOST; default 0.0.0.0)', '<host>'),
    },
    notes: 'Settings are environment variables (see the README). SIGTERM or SIGINT shut it down gracefully.',
    async run(_p, _args, config) {
      // before the server's modules load: they are most of what the start allocates
      const { holdYoungGeneration } = await import('./platform/young-generation.js');
      const release = holdYoungGeneration();
      // The database opens while the server's modules load: PGlite's WebAssembly compiles on V8's background
      // threads and its files are read by libuv's, beside the main thread's module loading
      const { openDatabase } = await import('./platform/db/index.js');
      const db = openDatabase(config!.databaseUrl, config!.dataDir);
      db.catch(() => undefined); // awaited (and its error thrown) by serve
      const { serve } = await import('./server.js');
      await serve(config!, release, db);
    },
  },
  secrets: {
    summary: 'generate: print the six secrets a multi-instance deployment shares, in their formats (for .env)',
    subcommands: { generate: sub('print fresh shared secrets', { flags: { format: flag('env (default) or json', '<env|json>') } }) },
    async run(_p, args) {
      const { runSecretsCommand } = await import('./platform/secrets-cli.js');
      process.exitCode = runSecretsCommand(args);
    },
  },
  sanctions: {
    operator: true,
    summary: 'OFAC SDN list: import <file> (sdn_advanced.xml or sdn.csv), refresh, status',
    subcommands: {
      import: sub('import sdn_advanced.xml or sdn.csv as a new list version', {
        args: '<file>',
        positionals: { min: 1, max: 1 },
        flags: {
          'published-at': flag("the list's date (sdn.csv carries none; default the file's modification time)", '<YYYY-MM-DD>'),
          comments: flag('sdn_comments.csv (default: found beside the file)', '<file>'),
          force: bool('accept a list older than the one in force'),
        },
      }),
      refresh: sub('download CREDENCE_SANCTIONS_URL now and import it if it changed'),
      status: sub('the list in force and the recent imports'),
    },
    async run(_p, args, config) {
      const { runSanctionsCommand } = await import('./modules/sanctions/cli.js');
      await runSanctionsCommand(args, config!);
    },
  },
  ingest: {
    operator: true,
    summary: 'import an ethereum-etl export (--format ethereum-etl <dir>) or sync wallets over JSON-RPC (--wallet <address>)',
    args: '[<dir>]',
    positionals: { min: 0, max: 1 },
    flags: {
      format: flag('ethereum-etl', '<format>'),
      chain: flag('chain id of the export (default 1)', '<id>'),
      'no-score': bool('import without rescoring the wallets'),
      wallet: { ...flag('sync this wallet over JSON-RPC', '<address>'), multiple: true },
    },
    async run(_p, args, config) {
      const { runIngestCommand } = await import('./cli/ingest.js');
      process.exitCode = await runIngestCommand(args, config!);
    },
  },
  contracts: {
    operator: true,
    summary: 'deploy the on-chain contracts (CREDENCE_CHAIN_RPC_URL, CREDENCE_SIGNER_KEY)',
    subcommands: {
      deploy: sub('deploy the verifiers, ReputationOracle and CredentialVerifier; prints the settings to add', {
        flags: {
          admin: flag("the contracts' admins (a multisig in production; default CREDENCE_CONTRACT_ADMINS)", '<address,...>'),
          governance: flag('governance members (default the admins)', '<address,...>'),
          operator: flag('extra oracle/issuer operators', '<address,...>'),
          circuits: flag('circuit keys (default CREDENCE_CIRCUITS_DIR, else the committed build)', '<dir>'),
        },
      }),
    },
    async run(_p, args, config) {
      const { runContractsCommand } = await import('./modules/proofs/cli.js');
      await runContractsCommand(args, config!);
    },
  },
  ceremony: {
    summary: 'multi-party trusted setup of the proof keys: init, contribute, beacon, verify, finalize (see docs/proofs.md)',
    subcommands: {
      init: sub('start a ceremony', {
        flags: {
          dir: flag('ceremony directory', '<dir>'),
          ptau: flag('a public ceremony .ptau', '<file>'),
          'min-contributions': flag('default 10', '<n>'),
        },
      }),
      contribute: sub('add a contribution', {
        flags: { dir: flag('ceremony directory', '<dir>'), name: flag('your name', '<name>'), entropy: flag('extra entropy', '<text>') },
      }),
      beacon: sub('apply a random beacon', {
        flags: { dir: flag('ceremony directory', '<dir>'), hash: flag('32-byte hex', '<hex>'), iterations: flag('default 10', '<n>') },
      }),
      verify: sub('verify every contribution', { flags: { dir: flag('ceremony directory', '<dir>'), ptau: flag('the .ptau', '<file>') } }),
      finalize: sub('write the final keys', {
        flags: {
          dir: flag('ceremony directory', '<dir>'),
          ptau: flag('the .ptau', '<file>'),
          out: flag('default circuits/build', '<dir>'),
          'min-contributors': flag('default 2', '<n>'),
        },
      }),
    },
    async run(_p, args) {
      const { runCeremonyCommand } = await import('./modules/proofs/ceremony-cli.js');
      await runCeremonyCommand(args);
    },
  },
  migrate: {
    operator: true,
    summary: 'apply database migrations and exit',
    async run(_p, _args, config) {
      const { openDatabase } = await import('./platform/db/index.js');
      const { migrate } = await import('./platform/db/migrate.js');
      const db = await openDatabase(config!.databaseUrl, config!.dataDir);
      const applied = await migrate(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      await db.close();
    },
  },
};

const integrator: Record<string, Command> = {
  login: { ...loginSpec, run: async (p) => (await import('./cli/login.js')).runLogin(p.flags) },
  keys: { ...keysSpec, run: async (p) => (await import('./cli/keys.js')).runKeys(p.path[1], p.flags, p.positionals) },
  score: { ...scoreSpec, run: async (p) => (await import('./cli/score.js')).runScore(p.flags, p.positionals) },
  proof: { ...proofSpec, run: async (p) => (await import('./cli/proof.js')).runProofVerify(p.flags, p.positionals) },
  webhooks: { ...webhooksSpec, run: async (p) => (await import('./cli/webhooks.js')).runListen(p.flags) },
  trigger: { ...triggerSpec, run: async (p) => (await import('./cli/webhooks.js')).runTrigger(p.flags, p.positionals) },
};

const commands: Record<string, Command> = { ...operator, ...integrator };

function usage(out: (s: string) => void) {
  out(`usage: credence <command> [args] [flags]   (credence ${VERSION})\n`);
  out('Running the service:');
  for (const [n, c] of Object.entries(operator)) out(`  ${n.padEnd(12)} ${c.summary}`);
  out('\nUsing a service (integrators; CREDENCE_API_URL, default http://127.0.0.1:8080):');
  for (const [n, c] of Object.entries(integrator)) out(`  ${n.padEnd(12)} ${c.summary}`);
  out("\n  credence <command> --help   the command's flags (starts nothing)\n  credence --version          print the version");
  out('\nService settings are environment variables (see the README); a bad value stops the command with a clear message.');
}

async function main() {
  const [name, ...args] = process.argv.slice(2);
  // Help and version never read settings, open the database or start anything.
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(VERSION);
    return;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    usage(console.log);
    return;
  }
  const cmd = commands[name];
  if (!cmd) {
    const s = suggest(name, Object.keys(commands));
    console.error(`credence: unknown command "${name}"${s.length ? `; did you mean ${s.join(' or ')}?` : ''}\n`);
    usage(console.error);
    process.exit(2);
  }
  let parsed: Parsed;
  try {
    parsed = parseCommand(name, cmd, args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`credence: ${e.message}\n(credence ${e.command.join(' ')} --help lists the flags)`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(helpText(parsed.path, parsed.spec));
    return;
  }
  // `serve --port/--host` are the PORT and HOST settings, read with the others
  if (name === 'serve') {
    if (typeof parsed.flags.port === 'string') process.env.PORT = parsed.flags.port;
    if (typeof parsed.flags.host === 'string') process.env.HOST = parsed.flags.host;
  }
  let config: Config | null = null;
  if (cmd.operator) {
    try {
      config = loadConfig();
    } catch (e) {
      if (e instanceof ConfigError) {
        console.error(`credence: invalid setting: ${e.message}`);
        process.exit(2);
      }
      throw e;
    }
  }
  try {
    await cmd.run(parsed, args, config);
  } catch (e) {
    // Another process holds the embedded database (platform/db/lock.ts): a clear refusal, not a stack trace.
    if (e instanceof Error && e.name === 'DataDirLocked') {
      console.error(`credence ${name}: ${e.message}`);
      process.exit(1);
    }
    if (name in integrator && e instanceof Error) {
      // the CLI's own errors and the SDK's error classes (code, details, request id) as one line
      const code = (e as { exitCode?: number }).exitCode ?? 1;
      const hint = e.name === 'ConnectionError' ? '\n(is the service running? npm start, or set --api-url / CREDENCE_API_URL)' : '';
      console.error(`credence ${parsed.path.join(' ')}: ${e.message}${hint}`);
      process.exit(code);
    }
    throw e;
  }
}

await main();
