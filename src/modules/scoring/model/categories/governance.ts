// GOVERNANCE: voting power used and trust received, held to the gas of votes and delegations.
import type { WalletFeatures } from '../../contracts.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { sat } from '../transforms.js';
import { anchor, capped, plural, r0, result } from './shared.js';

export function governance(f: WalletFeatures, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
  const g = f.governance;
  const G = P.governance;
  const terms: Term[] = [];
  // voting power, not vote count. Votes on pinned DAO governors at or above the floor, each weighing 0-1 by the
  // votes held at the proposal's snapshot (ingestion; features without it: the legacy weight each); proposals and
  // DAOs count in proportion to that power; delegations received by the votes they moved, never to oneself
  const power = g.votePower ?? g.votes * G.legacyVoteWeight;
  const share = Math.min(1, power / G.fullShareWeight);
  const trust = g.delegatedPower ?? g.delegationsReceived * G.legacyVoteWeight;
  if (g.votes > 0)
    terms.push({
      code: 'VOTING_POWER',
      description: `cast ${plural(g.votes, 'vote')} with voting power (weight ${power.toFixed(1)})`,
      points: G.votingPower.points * sat(power, G.votingPower.k),
    });
  if (g.proposalsVotedOn > 0)
    terms.push({
      code: 'PROPOSALS_VOTED',
      description: `voted on ${plural(g.proposalsVotedOn, 'proposal')}`,
      points: G.proposals.points * sat(g.proposalsVotedOn, G.proposals.k) * share,
    });
  if (g.governors > 0)
    terms.push({
      code: 'DAOS_PARTICIPATED',
      description: `took part in ${plural(g.governors, 'DAO governor')}`,
      points: G.daos.points * sat(g.governors, G.daos.k) * share,
    });
  if (g.delegationsMade > 0)
    terms.push({
      code: 'DELEGATED_VOTES',
      description: `delegated to others ${plural(g.delegationsMade, 'time')}`,
      points: G.delegated.points * sat(g.delegationsMade, G.delegated.k),
    });
  if (g.delegationsReceived > 0)
    terms.push({
      code: 'DELEGATE_TRUST',
      description: `received ${plural(g.delegationsReceived, 'delegation')} that moved votes (weight ${trust.toFixed(1)})`,
      points: G.delegateTrust.points * sat(trust, G.delegateTrust.k),
    });
  if (g.selfDelegations) {
    terms.push({
      code: 'DELEGATIONS_DISCOUNTED',
      description: `found but not counted: ${plural(g.selfDelegations, 'delegation')} of its own votes to itself (no one else's trust)`,
      points: 0,
      pinned: true,
    });
  }
  const backing = b.governance;
  const cap = capped(terms, backing, 'gas paid to vote and delegate (voting power held comes back: it backs nothing)', P);
  const ev = g.votes + g.delegationsMade + g.delegationsReceived;
  const conf = confidenceOf(
    ev,
    G.confidenceK,
    [g.votes > 0, g.governors >= 2, g.delegationsMade > 0, g.delegationsReceived > 0],
    f.chains.length,
  );
  return result(
    'GOVERNANCE',
    terms,
    conf,
    `${g.votes},${g.proposalsVotedOn},${g.governors},${g.delegationsMade},${g.delegationsReceived},${power.toFixed(3)},${trust.toFixed(3)},${r0(backing)}${cap}`,
    '',
    {
      code: 'NO_GOVERNANCE_ACTIVITY',
      description: 'no governance votes or delegations found',
    },
    anchor(f, 'governance'),
    backing,
  );
}
