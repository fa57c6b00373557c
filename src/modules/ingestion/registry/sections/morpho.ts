// Morpho Blue's singleton per chain (getChainAddresses(chainId).morpho), from its maintainers' package (read
// lazily, CommonJS build: see ../packages.ts).
import type { Builder } from '../builder.js';
import { requirePackage as require } from '../packages.js';

type MorphoSdk = { getChainAddresses(chainId: number): { morpho?: string } };

/** Morpho Blue's singleton and its deployment block. */
export function addMorpho(b: Builder): void {
  const { chainId, add } = b;
  // Morpho Blue: the singleton holds every market (by id); its events carry the assets moved
  let morpho: string | undefined;
  try {
    morpho = (require('@morpho-org/blue-sdk') as MorphoSdk).getChainAddresses(chainId).morpho;
  } catch {
    morpho = undefined; // the SDK does not know this chain
  }
  // its deployment block from the same SDK: a first sync reads its logs from there, not from block 0
  let morphoFrom: number | undefined;
  try {
    const at = (require('@morpho-org/blue-sdk') as { deployments?: Record<number, { morpho?: bigint | number }> }).deployments?.[chainId]
      ?.morpho;
    morphoFrom = at === undefined ? undefined : Number(at);
  } catch {
    morphoFrom = undefined;
  }
  if (morpho)
    add({
      address: morpho,
      protocol: 'morpho-blue',
      role: 'morpho-blue',
      label: 'Morpho Blue',
      fromBlock: morphoFrom,
      source: '@morpho-org/blue-sdk getChainAddresses(chainId).morpho, deployments[chainId].morpho (block)',
    });
}
