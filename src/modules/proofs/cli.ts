// `credence contracts deploy --admin <addr,...> [--governance <addr,...>] [--operator <addr,...>] [--circuits <dir>]`:
// deploys the two Groth16 verifiers of the circuit keys in use (--circuits, else CREDENCE_CIRCUITS_DIR, else the
// committed circuits/build; a ceremony's output carries its compiled verifiers in <dir>/verifiers, so no compiler
// is needed), checks each accepts a proof made with those keys, then ReputationOracle and CredentialVerifier, to
// CREDENCE_CHAIN_RPC_URL, signed by
// CREDENCE_SIGNER_KEY (the service's hot key). The admins (CREDENCE_CONTRACT_ADMINS; a multisig in production) get
// DEFAULT_ADMIN_ROLE, the governance members (CREDENCE_CONTRACT_GOVERNANCE, default the admins) GOVERNANCE_ROLE,
// the signer and the operators only ORACLE_ROLE / ISSUER_ROLE; then the signer renounces its admin role, so the hot
// key can never grant itself GOVERNANCE_ROLE and review its own escalations. Prints the settings to add.
import path from 'node:path';
import type { Address, Hex } from 'viem';
import type { Config } from '../../platform/config.js';
import { BUILD_DIR, setupSummary } from './artifacts.js';
import { connectChain, deployContracts } from './chain.js';

const USAGE =
  'usage: credence contracts deploy --admin <address,...> [--governance <address,...>] [--operator <address,...>] [--circuits <dir> (default CREDENCE_CIRCUITS_DIR, else circuits/build)]';

function list(args: string[], flag: string, fallback: string[]): Address[] | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return fallback.length ? (fallback as Address[]) : undefined;
  const v = args[i + 1] ?? '';
  const out = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const a of out) if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new Error(`${flag}: "${a}" is not an address`);
  return out as Address[];
}

export async function runContractsCommand(args: string[], config: Config): Promise<void> {
  if (args[0] !== 'deploy') {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  if (!config.chainRpcUrl || !config.signerKey) {
    console.error('credence contracts deploy needs CREDENCE_CHAIN_RPC_URL and CREDENCE_SIGNER_KEY');
    process.exitCode = 2;
    return;
  }
  let admins: Address[] | undefined, governors: Address[] | undefined, operators: Address[] | undefined;
  let circuitsDir = config.circuitsDir ?? BUILD_DIR;
  try {
    const c = args.indexOf('--circuits');
    if (c >= 0) {
      if (!args[c + 1] || args[c + 1].startsWith('--')) throw new Error('--circuits needs a directory');
      circuitsDir = args[c + 1];
    }
    circuitsDir = path.resolve(circuitsDir);
    admins = list(args, '--admin', config.contractAdmins);
    governors = list(args, '--governance', config.contractGovernance) ?? admins;
    operators = list(args, '--operator', []);
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const chain = await connectChain(config.chainRpcUrl, config.signerKey as Hex);
  const signer = chain.account.address;
  if (!admins?.length) {
    console.error(`name the contracts' admins (a multisig in production): --admin or CREDENCE_CONTRACT_ADMINS\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (admins.some((a) => a.toLowerCase() === signer.toLowerCase())) {
    console.error(`the signer ${signer} is the service's hot key: it must not be an admin`);
    process.exitCode = 2;
    return;
  }
  let setup: ReturnType<typeof setupSummary>;
  try {
    setup = setupSummary(circuitsDir);
  } catch (e) {
    console.error(`credence contracts deploy: ${circuitsDir} holds no circuit keys (${(e as Error).message})`);
    process.exitCode = 2;
    return;
  }
  console.log(`deploying from ${signer} to chain ${await chain.publicClient.getChainId()}`);
  console.log(
    `  verifiers for the keys in ${circuitsDir}: ${setup.label} (${setup.kind}; phase 2 contributors: ${setup.phase2Contributors})`,
  );
  let d: Awaited<ReturnType<typeof deployContracts>>;
  try {
    d = await deployContracts(chain, {
      operators: [signer, ...(operators ?? [])],
      governors,
      admins,
      circuitsDir,
      checkVerifiers: true,
      log: (m) => console.log(`  ${m}`),
    });
  } catch (e) {
    console.error(`credence contracts deploy: ${(e as Error).message}`);
    process.exitCode = 1;
    return;
  }
  console.log(
    `  admins: ${admins.join(', ')}; governance: ${(governors ?? []).join(', ')}; oracle/issuer: ${[signer, ...(operators ?? [])].join(', ')}`,
  );
  console.log('\nadd to the service settings:');
  console.log(`CREDENCE_ORACLE_ADDRESS=${d.oracle}`);
  console.log(`CREDENCE_CREDENTIAL_VERIFIER_ADDRESS=${d.credentialVerifier}`);
  if (circuitsDir !== path.resolve(BUILD_DIR)) console.log(`CREDENCE_CIRCUITS_DIR=${circuitsDir}`);
}
