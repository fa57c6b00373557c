// Governance (votes and delegations on pinned governors and tokens), ENS registrations and EAS attestations.
import { easTrust } from '../registry/index.js';
import type { Decoders, LogScope } from './scope.js';

function vote(s: LogScope): void {
  s.add(s.a('voter'), 'gov_vote', { ref: s.n('proposalId'), amount: s.n('weight'), protocol: s.protocol });
}

function delegateChanged(s: LogScope): void {
  const delegator = s.a('delegator');
  const to = s.a('toDelegate');
  s.add(delegator, 'gov_delegate', { counterparty: to, protocol: s.protocol });
  if (to !== delegator) s.add(to, 'gov_delegated_to', { counterparty: delegator, protocol: s.protocol });
}

// the votes a delegation moved to the delegate (negative when they left): what a delegation received weighs;
// ref: the delegate's votes from then on (its voting power over time: what holding it cost)
function delegateVotesChanged(s: LogScope): void {
  const moved = (s.args.newBalance as bigint) - (s.args.previousBalance as bigint);
  s.add(s.a('delegate'), 'gov_votes_changed', {
    amount: moved.toString(),
    ref: (s.args.newBalance as bigint).toString(),
    protocol: s.protocol,
  });
}

// the label hash is the base registrar's token id: one name counts once whichever event is seen
function ensRegistered(s: LogScope): void {
  s.add(s.a('owner'), 'ens_register', { ref: s.log.topics[1].toLowerCase(), protocol: 'ens' });
}

function attested(s: LogScope): void {
  const { a } = s;
  const uid = s.n('uid');
  // Anyone may attest anything on EAS: only a trusted attester or schema (data/registry) marks it 'eas-trusted'
  const protocol = easTrust(s.ctx.chainId, a('attester') ?? '', s.log.topics[3] ?? '') ? 'eas-trusted' : 'eas';
  s.add(a('recipient'), 'attestation_received', { counterparty: a('attester'), ref: uid, protocol });
  s.add(a('attester'), 'attestation_made', { counterparty: a('recipient'), ref: uid, protocol });
}

export const governanceDecoders: Decoders = {
  VoteCast: vote,
  VoteCastWithParams: vote,
  DelegateChanged: delegateChanged,
  DelegateVotesChanged: delegateVotesChanged,
  EnsNameRegisteredV1: ensRegistered,
  EnsNameRegisteredV2: ensRegistered,
  EnsBaseNameRegistered: ensRegistered,
  Attested: attested,
};
