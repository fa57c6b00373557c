// `credence contracts deploy [--governance <addr,...>] [--operator <addr,...>]`: deploys the two Groth16
// verifiers, ReputationOracle and CredentialVerifier to CREDENCE_CHAIN_RPC_URL, signed by CREDENCE_SIGNER_KEY
// (which becomes the contracts' admin), grants the oracle/issuer roles (default: the signer) and the
// governance role, and prints the settings to add.
import type { Address, Hex } from 'viem';
import type { Config } from '../../platform/config.js';
import { connectChain, deployContracts } from './chain.js';

const USAGE = 'usage: credence contracts deploy [--governance <address,...>] [--operator <address,...>]';

function list(args: string[], flag: string): Address[] | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
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
  const chain = await connectChain(config.chainRpcUrl, config.signerKey as Hex);
  console.log(`deploying from ${chain.account.address} to chain ${await chain.publicClient.getChainId()}`);
  const operators = list(args, '--operator');
  const d = await deployContracts(chain, {
    operators: operators ? [chain.account.address, ...operators] : undefined,
    governors: list(args, '--governance'),
    log: (m) => console.log(`  ${m}`),
  });
  console.log('\nadd to the service settings:');
  console.log(`CREDENCE_ORACLE_ADDRESS=${d.oracle}`);
  console.log(`CREDENCE_CREDENTIAL_VERIFIER_ADDRESS=${d.credentialVerifier}`);
}
