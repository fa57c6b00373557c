// DEVELOPER: contracts others use.
import type { WalletFeatures } from '../../contracts.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { sat } from '../transforms.js';
import { anchor, capped, plural, result } from './shared.js';

export function developer(f: WalletFeatures, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
  const D = P.developer;
  const d = f.developer;
  const used = d.usedContracts ?? 0;
  const users = d.thirdPartyUsers ?? 0;
  const terms: Term[] = [];
  // a deployment weighs by third-party use (distinct callers the deployer did not fund: ingestion); a
  // deployment nobody else calls, and transactions sent, cost only gas: nothing, and a little
  if (d.contractsDeployed > 0)
    terms.push({
      code: 'CONTRACTS_USED',
      description: `${used} of ${plural(d.contractsDeployed, 'deployed contract')} called by others`,
      points: D.contractsUsed.points * sat(used, D.contractsUsed.k),
    });
  if (users > 0)
    terms.push({
      code: 'THIRD_PARTY_USERS',
      description: `${plural(users, 'distinct caller')} the deployer did not fund`,
      points: D.thirdPartyUsers.points * sat(users, D.thirdPartyUsers.k),
    });
  const live = Math.min(d.contractsWithCode, used);
  if (live > 0)
    terms.push({
      code: 'LIVE_CONTRACTS',
      description: `${plural(live, 'contract')} in use still holding code`,
      points: D.liveContracts.points * sat(live, D.liveContracts.k),
    });
  if (f.txCount > 0)
    terms.push({
      code: 'TRANSACTIONS_SENT',
      description: `sent ${plural(f.txCount, 'transaction')}`,
      points: D.transactionsSent.points * sat(f.txCount, D.transactionsSent.k),
    });
  const backing = b.total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const conf = confidenceOf(
    d.contractsDeployed + users,
    D.confidenceK,
    [d.contractsDeployed > 0, used > 0, users >= 5, f.txCount >= 10],
    f.chains.length,
  );
  return result(
    'DEVELOPER',
    terms,
    conf,
    `${d.contractsDeployed},${d.contractsWithCode},${f.txCount},${used},${users}${cap}`,
    '',
    {
      code: 'NO_CONTRACTS_DEPLOYED',
      description: 'no contract deployments found',
    },
    anchor(f, 'developer'),
    backing,
  );
}
