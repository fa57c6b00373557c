// The Ethereum Attestation Service contract, from its maintainers' deployment files.
import type { Builder } from '../builder.js';
import { requirePackage as require } from '../packages.js';

/** EAS, from its deployment files. */
export function addEas(b: Builder): void {
  const { chainId, add } = b;
  const easDir = { 1: 'mainnet', 10: 'optimism', 137: 'polygon', 8453: 'base', 42161: 'arbitrum-one' }[chainId as 1];
  if (easDir) {
    const d = require(`@ethereum-attestation-service/eas-contracts/deployments/${easDir}/EAS.json`) as {
      address: string;
      receipt?: { blockNumber?: number };
    };
    add({
      address: d.address,
      protocol: 'eas',
      role: 'eas',
      label: 'EAS',
      // the OP-stack predeploys (0x42..21) have no receipt: their block is in the chain file's fromBlocks
      fromBlock: d.receipt?.blockNumber,
      source: `@ethereum-attestation-service/eas-contracts deployments/${easDir}/EAS.json`,
    });
  }
}
