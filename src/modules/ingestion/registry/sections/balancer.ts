// Balancer V2's Vault (task 20210418-vault), from its maintainers' package (read lazily, CommonJS build: see
// ../packages.ts).
import type { Builder } from '../builder.js';
import { requirePackage as require } from '../packages.js';

type BalancerDeployments = { getBalancerContractAddress(task: string, contract: string, network: string): string };
/** Network names of @balancer-labs/v2-deployments (it has no Base deployment of the V2 Vault) */
const BALANCER_NETWORK: Record<number, string> = { 1: 'mainnet', 10: 'optimism', 137: 'polygon', 42161: 'arbitrum' };

/** Balancer V2's Vault. */
export function addBalancer(b: Builder): void {
  const { chainId, add } = b;
  // Balancer V2: the Vault emits every pool's Swap (poolId)
  const network = BALANCER_NETWORK[chainId];
  if (network) {
    try {
      const vault = (require('@balancer-labs/v2-deployments') as BalancerDeployments).getBalancerContractAddress(
        '20210418-vault',
        'Vault',
        network,
      );
      if (vault)
        add({
          address: vault,
          protocol: 'balancer-v2',
          role: 'balancer-vault',
          label: 'Balancer V2 Vault',
          source: `@balancer-labs/v2-deployments 20210418-vault Vault (${network})`,
        });
    } catch {
      // the package has no Vault deployment for this network
    }
  }
}
