// SOCIAL: the breadth of real relationships.
import type { WalletFeatures } from '../../contracts.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { sat } from '../transforms.js';
import { anchor, capped, plural, result, untrustedAttestations } from './shared.js';

export function social(f: WalletFeatures, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
  const S = P.social;
  const terms: Term[] = [];
  if (f.distinctCounterparties > 0)
    terms.push({
      code: 'COUNTERPARTIES',
      description: `transacted with ${plural(f.distinctCounterparties, 'distinct address', 'distinct addresses')}`,
      points: S.counterparties.points * sat(f.distinctCounterparties, S.counterparties.k),
    });
  if (f.tokenTransfers > 0)
    terms.push({
      code: 'TOKEN_TRANSFERS',
      description: plural(f.tokenTransfers, 'token transfer'),
      points: S.tokenTransfers.points * sat(f.tokenTransfers, S.tokenTransfers.k),
    });
  if (f.activeMonths > 0)
    terms.push({
      code: 'ACTIVE_MONTHS',
      description: `active in ${plural(f.activeMonths, 'month')}`,
      points: S.activeMonths.points * sat(f.activeMonths, S.activeMonths.k),
    });
  if (f.identity.attestationsMade > 0)
    terms.push({
      code: 'ATTESTATIONS_MADE',
      description: `made ${plural(f.identity.attestationsMade, 'attestation')} about others`,
      points: S.attestationsMade.points * sat(f.identity.attestationsMade, S.attestationsMade.k),
    });
  if (f.identity.untrustedMade) terms.push(untrustedAttestations(f.identity.untrustedMade, 'made by it'));
  if (f.governance.delegationsReceived > 0)
    terms.push({
      code: 'TRUSTED_BY_DELEGATORS',
      description: `${plural(f.governance.delegationsReceived, 'wallet')} delegated to it`,
      points: S.delegators.points * sat(f.governance.delegationsReceived, S.delegators.k),
    });
  const backing = b.total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const ev = f.distinctCounterparties + f.identity.attestationsMade + f.governance.delegationsReceived;
  const conf = confidenceOf(
    ev,
    S.confidenceK,
    [
      f.distinctCounterparties > 0,
      f.tokenTransfers > 0,
      f.identity.attestationsMade > 0,
      f.governance.delegationsReceived > 0,
      f.activeMonths >= 3,
    ],
    f.chains.length,
  );
  return result(
    'SOCIAL',
    terms,
    conf,
    `${f.distinctCounterparties},${f.tokenTransfers},${f.activeMonths},${f.identity.attestationsMade},${f.governance.delegationsReceived}${cap}`,
    '',
    {
      code: 'NO_SOCIAL_GRAPH',
      description: 'no counterparties or attestations found',
    },
    anchor(f, 'social'),
    backing,
  );
}
