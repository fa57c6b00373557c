// Debt claims against me (dispute a wrong one) and my disputes about my scores (file, follow, escalate, withdraw),
// with the wallet's own session. Texts the service wants 10 to 2,000 characters long are checked here first.
import { useState } from 'preact/hooks';
import { DISPUTE_REASONS, type Category, type DisputeReason, type DisputeStatus, type ListItem, type Schemas } from '@credence/sdk';
import { call, own as client, CATEGORY_NAMES, plural } from '../api.ts';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { ActionButton, CategorySelect, Select } from '../ui/widgets.tsx';

/** InaccurateScore -> "inaccurate score" */
export const reasonWords = (r: string) => r.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** The service's rule for these texts (10 to 2,000 characters), checked before sending: null when it holds. */
export function textProblem(what: string, text: string): string | null {
  const n = text.trim().length;
  if (n < 10) return `${what} needs at least 10 characters (${n === 0 ? 'none yet' : `only ${plural(n, 'character')} so far`}).`;
  if (n > 2000) return `${what} may be at most 2,000 characters (${n.toLocaleString()} now).`;
  return null;
}

const REASON_OPTIONS = DISPUTE_REASONS.map((r) => [r, reasonWords(r)] as const);
/** A dispute in one of these is over: nothing left to escalate or withdraw. */
const CLOSED: readonly DisputeStatus[] = ['Resolved', 'Rejected', 'Withdrawn'];

function ClaimRow({ address, claim, onChange }: { address: string; claim: ListItem<'/api/v1/debt-claims/debtor/{address}'>; onChange: () => void }) {
  const [reason, setReason] = useState('');
  const a = useAction();
  return (
    <li class="row" data-testid="claim">
      <p>
        <strong>
          {claim.amountExact ?? claim.amount} {claim.currency}
        </strong>{' '}
        {reasonWords(claim.claimType)} from <code>{claim.creditorAddress}</code> ({claim.protocolName ?? 'no protocol'}), filed {when(claim.createdAt)} ·{' '}
        <span class="badge" data-testid="claim-status">{claim.status}</span>
      </p>
      {claim.status === 'Pending' && (
        <form
          class="inline"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const problem = textProblem('The reason', reason);
            if (problem) return a.setError(problem);
            void a.run(async () => {
              await call(client.POST('/api/v1/debt-claims/{id}/dispute', { params: { path: { id: claim.id } }, body: { debtorAddress: address, reason } }));
              onChange();
              return 'Claim disputed: its impact is paused while it is reviewed.';
            });
          }}
        >
          <Field label="Why this claim is wrong (10-2,000 characters)">
            <textarea name="claimReason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} rows={2} minLength={10} maxLength={2000} required />
          </Field>
          <button type="submit" disabled={a.busy}>
            Dispute this claim
          </button>
        </form>
      )}
      <Status error={a.error} ok={a.ok} testid="claim" />
    </li>
  );
}

export function Claims({ address }: { address: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/debt-claims/debtor/{address}', { params: { path: { address } } })), [address]);
  return (
    <Section id="claims" title="Debt claims against me">
      <Status error={l.error} testid="claims" />
      {l.data && (
        <>
          <p>
            {plural(l.data.claimCount, 'claim')}; outstanding {l.data.totalOutstandingDebtExact ?? l.data.totalOutstandingDebt}.
          </p>
          <ul class="list">
            {l.data.claims.map((c) => (
              <ClaimRow key={c.id} address={address} claim={c} onChange={l.reload} />
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

function DisputeRow({ address, d, onChange }: { address: string; d: Schemas['Dispute']; onChange: () => void }) {
  const [why, setWhy] = useState('');
  const a = useAction();
  const open = !CLOSED.includes(d.status);
  return (
    <li class="row" data-testid="dispute">
      <p>
        <strong>{CATEGORY_NAMES[d.category]}</strong>: {reasonWords(d.reason)} · <span class="badge" data-testid="dispute-status">{d.status}</span> · filed {when(d.createdAt)}
      </p>
      <p>{d.description}</p>
      {d.resolutionNotes && <p class="muted">Notes: {d.resolutionNotes}</p>}
      {d.revisedScore != null && <p class="muted">Revised score: {d.revisedScore}</p>}
      {open && (
        <div class="actions">
          <form
            class="inline"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              const problem = textProblem('Why the answer is unsatisfactory', why);
              if (problem) return a.setError(problem);
              void a.run(async () => {
                await call(client.POST('/api/v1/dispute/{id}/escalate', { params: { path: { id: d.id } }, body: { reason: why } }));
                onChange();
                return 'Escalated to on-chain governance.';
              });
            }}
          >
            <Field label="Escalate: why the answer is unsatisfactory">
              <input name="escalateReason" value={why} onInput={(e) => setWhy(e.currentTarget.value)} minLength={10} maxLength={2000} required />
            </Field>
            <button type="submit" class="secondary" disabled={a.busy}>
              Escalate
            </button>
          </form>
          <ActionButton
            action={a}
            kind="danger"
            run={async () => {
              await call(client.POST('/api/v1/dispute/{id}/withdraw', { params: { path: { id: d.id } }, body: { walletAddress: address } }));
              onChange();
              return 'Dispute withdrawn.';
            }}
          >
            Withdraw
          </ActionButton>
        </div>
      )}
      <Status error={a.error} ok={a.ok} testid="dispute-action" />
    </li>
  );
}

export function Disputes({ address }: { address: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/dispute/wallet/{address}', { params: { path: { address } } })), [address]);
  const [category, setCategory] = useState<Category>('OVERALL');
  const [reason, setReason] = useState<DisputeReason>('InaccurateScore');
  const [description, setDescription] = useState('');
  const [evidence, setEvidence] = useState('');
  const a = useAction();
  return (
    <Section id="disputes" title="My disputes" intro="Think a score is wrong? File a dispute; an administrator reviews it and may revise the score.">
      <form
        class="stack"
        noValidate
        aria-label="File a dispute"
        onSubmit={(e) => {
          e.preventDefault();
          const problem = textProblem('What is wrong', description);
          if (problem) return a.setError(problem);
          void a.run(async () => {
            await call(client.POST('/api/v1/dispute', { body: { walletAddress: address, category, reason, description, ...(evidence ? { evidence } : {}) } }));
            setDescription('');
            setEvidence('');
            l.reload();
            return 'Dispute filed: it is Pending review.';
          });
        }}
      >
        <div class="grid">
        <Field label="Category">
          <CategorySelect name="category" value={category} onChange={setCategory} />
        </Field>
        <Field label="Reason">
          <Select name="reason" value={reason} onChange={setReason} options={REASON_OPTIONS} />
        </Field>
        <Field label="What is wrong (10-2,000 characters)">
          <textarea name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} rows={3} minLength={10} maxLength={2000} required />
        </Field>
        <Field label="Evidence (optional: transaction hashes, links)">
          <textarea name="evidence" value={evidence} onInput={(e) => setEvidence(e.currentTarget.value)} rows={2} />
        </Field>
        </div>
        <p class="actions">
          <button type="submit" disabled={a.busy}>
            File dispute
          </button>
        </p>
      </form>
      <Status error={a.error} ok={a.ok} testid="dispute-file" />
      <Status error={l.error} testid="disputes" />
      {l.data && (
        <ul class="list">
          {l.data.disputes.map((d) => (
            <DisputeRow key={d.id} address={address} d={d} onChange={l.reload} />
          ))}
          {l.data.disputes.length === 0 && <li>No disputes.</li>}
        </ul>
      )}
    </Section>
  );
}
