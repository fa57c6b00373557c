// `npm run demo`: starts a local chain (as chain 1, on 127.0.0.1:8545 unless --chain-port), drives the scenario
// wallets through their histories while the API reads that chain over JSON-RPC exactly as it would read mainnet
// (scored after each month: the score history spans the replayed year; see demo-world.ts), serves the API, and prints
// the demo wallets, their scores, what each is and the checks that it scores so, an API key, the demo admin wallet's
// private key and the wallets' public test keys. The
// database is in memory unless --data-dir keeps it (embedded PGlite; the admin key is kept there too, so the same
// wallet stays admin). Ctrl-C stops everything.
//   npm run demo -- [--data-dir <dir>] [--chain-port <port>]      (the API port: PORT, default 8080)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/platform/config.js';
import { startLocalChain } from '../test/helpers/local-chain.js';
import { SCENARIO_START_DAYS_AGO } from './scenarios.js';
import { demoWalletKeys, formatWorld, replayDemo } from './demo-world.js';
import { UsageError, helpText, parseCommand, type CommandSpec } from '../src/cli/args.js';

const SPEC: CommandSpec = {
  summary: 'a local chain with scored demo wallets, and the API reading it (npm run demo -- [flags])',
  flags: {
    'data-dir': {
      type: 'string',
      value: '<dir>',
      description: 'keep the database (embedded PGlite) and the admin key in this directory (default: in memory, gone at exit)',
    },
    'chain-port': { type: 'string', value: '<port>', description: 'JSON-RPC port of the local chain on 127.0.0.1 (default 8545)' },
  },
};

function options() {
  try {
    const p = parseCommand('demo', SPEC, process.argv.slice(2));
    if (p.help) {
      console.log(helpText(['demo'], SPEC).replace('credence demo', 'npm run demo --'));
      process.exit(0);
    }
    const chainPort = p.flags['chain-port'] === undefined ? 8545 : Number(p.flags['chain-port']);
    if (!Number.isInteger(chainPort) || chainPort < 1 || chainPort > 65535)
      throw new UsageError(`--chain-port: "${p.flags['chain-port']}" is not a port`, ['demo']);
    return { dataDir: p.flags['data-dir'] ? path.resolve(String(p.flags['data-dir'])) : null, chainPort };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`npm run demo: ${e.message.replace('credence demo', 'npm run demo')}`);
    process.exit(2);
  }
}

/** The demo admin: kept in the data directory when there is one, so it stays the same wallet across runs. */
function adminWallet(dataDir: string | null): Wallet {
  if (!dataDir) return new Wallet(Wallet.createRandom().privateKey);
  const file = path.join(dataDir, 'demo-admin.key');
  if (existsSync(file)) return new Wallet(readFileSync(file, 'utf8').trim());
  const w = new Wallet(Wallet.createRandom().privateKey);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${w.privateKey}\n`, { mode: 0o600 });
  return w;
}

type Chain = Awaited<ReturnType<typeof startLocalChain>>;
type World = Awaited<ReturnType<typeof replayDemo>>;

/** The local chain, started SCENARIO_START_DAYS_AGO days in the past; a port in use ends the demo with a hint. */
async function startChain(port: number): Promise<Chain> {
  console.log(`starting the local chain (Hardhat, chain id 1) on 127.0.0.1:${port} ...`);
  try {
    return await startLocalChain({ initialDate: new Date(Date.now() - SCENARIO_START_DAYS_AGO * 86_400_000), port });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    console.error(`npm run demo: port ${port} is in use (another node or demo?): pass --chain-port <port>`);
    process.exit(1);
  }
}

/** The service's settings (from the environment), reading the local chain as chain 1, with the demo admin. */
function demoConfig(base: Config, dataDir: string | null, chainUrl: string, admin: Wallet) {
  return {
    ...base,
    // --data-dir keeps the database; without it the demo's data lives in memory only
    databaseUrl: dataDir ? null : (base.databaseUrl ?? 'pglite://memory'),
    dataDir: dataDir ?? base.dataDir,
    rpcUrls: { ...base.rpcUrls, 1: chainUrl },
    ingestConfirmations: 0, // the local chain never reorganizes
    adminAddresses: [...base.adminAddresses, admin.address.toLowerCase()],
    siweDomain: base.siweDomain ?? `localhost:${base.port}`,
    logLevel: base.logLevel === 'info' ? 'warn' : base.logLevel,
  };
}

/** An API key for the demo, through the real Sign-In with Ethereum flow (the demo's admin wallet). */
async function demoApiKey(url: string, domain: string, admin: Wallet): Promise<string | undefined> {
  const { nonce } = (await (await fetch(`${url}/api/v1/auth/nonce`)).json()) as { nonce: string };
  const message = new SiweMessage({
    domain,
    address: admin.address,
    statement: 'Credence demo',
    uri: url,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  const verify = await fetch(`${url}/api/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature: await admin.signMessage(message) }),
  });
  const { token } = (await verify.json()) as { token: string };
  const keyRes = await fetch(`${url}/api/v1/billing/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ organizationName: 'Credence demo', contactEmail: 'demo@example.com', tier: 'Growth' }),
  });
  return ((await keyRes.json()) as { apiKey?: string }).apiKey;
}

/** Where everything is, the wallets and their scores, the keys to sign in with and commands to try. */
function printWelcome(o: { url: string; chainUrl: string; dataDir: string | null; admin: Wallet; apiKey?: string; world: World }) {
  const { url, admin, apiKey, world } = o;
  const sc = world.scenario;
  console.log(`\nCredence API on ${url}  (console: ${url}/console, API explorer: ${url}/swagger)`);
  console.log(`local chain JSON-RPC on ${o.chainUrl} (chain id 1)`);
  console.log(
    o.dataDir
      ? `data kept in ${o.dataDir} (embedded PGlite; run again with the same --data-dir to keep it)`
      : 'data in memory: gone at exit (npm run demo -- --data-dir <dir> keeps it)',
  );
  console.log(`demo admin wallet ${admin.address} (an admin of this demo), private key ${admin.privateKey}`);
  console.log(`  sign in as it: node bin/credence.mjs login --api-url ${url} --private-key ${admin.privateKey}  (or in the console)`);
  if (apiKey) console.log(`demo API key (Growth): ${apiKey}\n`);
  for (const line of formatWorld(world)) console.log(line);
  // the console shows a signed-in wallet its own scores and history: these are Hardhat's public test keys
  console.log("\nsee a wallet in the console: sign in with its key (Hardhat's well-known test keys: never send real funds to them)");
  for (const [role, key] of Object.entries(demoWalletKeys(sc.wallets))) console.log(`  ${role.padEnd(11)} ${key}`);
  if (apiKey) {
    console.log('\ntry:');
    console.log(`  curl -s -H 'X-API-Key: ${apiKey}' ${url}/api/v1/reputation/${sc.wallets.borrower}/DEFI_LENDING`);
    console.log(`  curl -s -H 'X-API-Key: ${apiKey}' ${url}/api/v1/reputation/${sc.wallets.trader}?explain=true`);
  }
  console.log('\nCtrl-C to stop.');
}

async function main() {
  const opts = options();
  const t0 = Date.now();
  const chain = await startChain(opts.chainPort);
  const base = loadConfig();
  const admin = adminWallet(opts.dataDir);
  const config = demoConfig(base, opts.dataDir, chain.url, admin);
  const app = await buildApp(config);
  // the histories happen while the API reads the chain: it scores each wallet after every month of the replay
  console.log('replaying about eleven months of histories, the API reading the chain after each month ...');
  const world = await replayDemo(app, chain);
  const sc = world.scenario;
  console.log(
    `scenarios: ${sc.transactions} transactions in ${sc.headBlock - sc.firstBlock + 1} blocks, read and scored month by month (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  const apiKey = await demoApiKey(url, config.siweDomain, admin);
  printWelcome({ url, chainUrl: chain.url, dataDir: opts.dataDir, admin, apiKey, world });

  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await chain.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
