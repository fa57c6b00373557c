// `credence contracts deploy --admin <addr,...> [--governance <addr,...>] [--operator <addr,...>]`: deploys the two
// Groth16 verifiers, ReputationOracle and CredentialVerifier to CREDENCE_CHAIN_RPC_URL, signed by
// CREDENCE_SIGNER_KEY (the service's hot key). The admins (CREDENCE_CONTRACT_ADMINS; a multisig in production) get
// DEFAULT_ADMIN_ROLE, the governance members (CREDENCE_CONTRACT_GOVERNANCE, default the admins) GOVERNANCE_ROLE,
// the signer and the operators only ORACLE_ROLE / ISSUER_ROLE; then the signer renounces its admin role, so the hot
// key can never grant itself GOVERNANCE_ROLE and review its own escalations. Prints the settings to add.
import type { Address, Hex } from 'viem';
import type { Config } from '../../platform/config.js';
import { connectChain, deployContracts } from './chain.js';

const USAGE = 'usage: credence contracts deploy --admin <address,...> [--governance <address,...>] [--operator <address,...>]';

function list(args: string[], flag: string, fallback: string[]): Address[] | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return fallback.length ? (fallback as Address[]) : undefined;
  const v = args[i + 1] ?? '';
  const out = v.split(',').map((s) => s.trim()).filter(Boolean);
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
  try {
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
  console.log(`deploying from ${signer} to chain ${await chain.publicClient.getChainId()}`);
  const d = await deployContracts(chain, {
    operators: [signer, ...(operators ?? [])],
    governors,
    admins,
    log: (m) => console.log(`  ${m}`),
  });
  console.log(`  admins: ${admins.join(', ')}; governance: ${(governors ?? []).join(', ')}; oracle/issuer: ${[signer, ...(operators ?? [])].join(', ')}`);
  console.log('\nadd to the service settings:');
  console.log(`CREDENCE_ORACLE_ADDRESS=${d.oracle}`);
  console.log(`CREDENCE_CREDENTIAL_VERIFIER_ADDRESS=${d.credentialVerifier}`);
}
