// Aave V2/V3: every market of the Aave address book on the chain.
import { type Builder, lc } from '../builder.js';
import { aaveAddressBook } from '../packages.js';

/** Aave V2/V3 pools, their reserves and aTokens (see the comment inside). */
export function addAave(b: Builder): void {
  const { chainId, add, addToken, contracts, blocks } = b;
  // Aave V2/V3 pools (every market of the address book on this chain), their reserves' decimals and their aTokens:
  // a position is the wallet's aTokens, so one sent to another wallet is collateral leaving it (no Withdraw names
  // it). An aToken is deployed by its pool's configurator after the pool: the pool's fromBlock bounds it.
  for (const [name, market] of Object.entries(aaveAddressBook())) {
    const m = market as {
      CHAIN_ID?: number;
      POOL?: string;
      ASSETS?: Record<string, { UNDERLYING: string; decimals: number; A_TOKEN?: string }>;
    };
    const v = /^AaveV([23])[A-Z]/.exec(name)?.[1];
    if (!v || m?.CHAIN_ID !== chainId || !m.POOL) continue;
    add({
      address: m.POOL,
      protocol: `aave-v${v}`,
      role: 'lending-pool',
      label: `${name} Pool`,
      source: `@bgd-labs/aave-address-book ${name}.POOL`,
    });
    const pool = contracts.get(lc(m.POOL))!;
    for (const [sym, asset] of Object.entries(m.ASSETS ?? {})) {
      addToken(asset.UNDERLYING, sym, asset.decimals);
      if (asset.A_TOKEN && pool.role === 'lending-pool')
        add({
          address: asset.A_TOKEN,
          protocol: pool.protocol,
          role: 'a-token',
          label: `${name} a${sym}`,
          fromBlock: blocks.get(lc(asset.A_TOKEN)) ?? pool.fromBlock,
          pool: pool.address,
          reserve: asset.UNDERLYING,
          source: `@bgd-labs/aave-address-book ${name}.ASSETS.${sym}.A_TOKEN`,
        });
    }
  }
}
