// Admin: the disputes queue across every wallet (status, category and wallet filters, paged), each dispute with
// its status action and optional revised score; with a wallet chosen, that wallet's score revisions.
import { useState } from 'preact/hooks';
import { DISPUTE_STATUSES, isCategory, type Category, type DisputeStatus, type Schemas } from '@credence/sdk';
import { call, client, CATEGORY_NAMES, plural } from '../api.ts';
import { reasonWords } from './disputes.tsx';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { CategorySelect, FilterForm, LoadMore, Select, useFilteredPages } from '../ui/widgets.tsx';

/** What an administrator sets: every status but Withdrawn (only the wallet withdraws its dispute). */
const STATUSES = DISPUTE_STATUSES.filter((s) => s !== 'Withdrawn').map((s) => [s, s] as const);
type QueueStatus = 'open' | 'all' | DisputeStatus;
const FILTERS: (readonly [QueueStatus, string])[] = [['open', 'Open (still being handled)'], ['all', 'All'], ...DISPUTE_STATUSES.map((s) => [s, s] as const)];

type Dispute = Schemas['Dispute'];

interface Filter {
  status: QueueStatus;
  category: Category | '';
  wallet: string;
}

function DisputeAdmin({ d, admin, onChange }: { d: Dispute; admin: string; onChange: () => void }) {
  const [status, setStatus] = useState<DisputeStatus>(d.status === 'Pending' ? 'Under Review' : d.status);
  const [notes, setNotes] = useState('');
  const [revised, setRevised] = useState('');
  const a = useAction();
  return (
    <li class="row" data-testid="admin-dispute">
      <p>
        <strong>{CATEGORY_NAMES[d.category]}</strong> · {reasonWords(d.reason)} · <span class="badge" data-testid="admin-dispute-status">{d.status}</span> · {when(d.createdAt)}
      </p>
      <p class="muted">
        Wallet <code data-testid="admin-dispute-wallet">{d.walletAddress}</code> · dispute <code>{d.id}</code>
      </p>
      <p>{d.description}</p>
      {d.evidence && <p class="muted">Evidence: {d.evidence}</p>}
      {d.resolutionNotes && <p class="muted">Notes: {d.resolutionNotes}{d.revisedScore != null ? ` (revised to ${d.revisedScore})` : ''}</p>}
      <form
        class="grid"
        aria-label={`Act on the dispute ${d.id}`}
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            const body = { status, resolvedBy: admin, ...(notes ? { resolutionNotes: notes } : {}), ...(revised !== '' ? { revisedScore: Number(revised) } : {}) };
            await call(client.PUT('/api/v1/dispute/{id}/status', { params: { path: { id: d.id } }, body }));
            onChange();
            return `Dispute set to ${status}.`;
          });
        }}
      >
        <Field label="New status">
          <Select name="adminStatus" value={status} onChange={setStatus} options={STATUSES} />
        </Field>
        <Field label="Resolution notes">
          <input name="resolutionNotes" value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
        </Field>
        <Field label="Revised score (0-1000, optional)">
          <input name="revisedScore" type="number" min={0} max={1000} value={revised} onInput={(e) => setRevised(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={a.busy}>
          Apply
        </button>
      </form>
      <Status error={a.error} ok={a.ok} testid="admin-dispute" />
    </li>
  );
}

/** The category score.revised records in its details (free-form in the API: any value is shown as it is). */
const revisedCategory = (d: Record<string, unknown>) => (isCategory(d.category) ? CATEGORY_NAMES[d.category] : d.category ? String(d.category) : 'Score');
const shown = (v: unknown) => (v === null || v === undefined ? null : String(v));

/** A wallet's score revisions, from the audit log (score.revised on wallet:<address>): an administrator's session
 *  reads it for any wallet, with no API key. */
function Revisions({ wallet, tick }: { wallet: string; tick: unknown }) {
  const r = useLoad(async () => {
    const res = await call(client.GET('/api/v1/audit-log', { params: { query: { action: 'score.revised', target: `wallet:${wallet.toLowerCase()}`, limit: 100 } } }));
    return res.entries;
  }, [wallet, tick]);
  return (
    <>
      <h3>Score revisions of {wallet}</h3>
      <Status error={r.error} testid="revisions" />
      {r.data && r.data.length === 0 && <p>No revisions.</p>}
      {r.data && r.data.length > 0 && (
        <ul class="list" data-testid="revisions">
          {r.data.map((c) => (
            <li key={c.id}>
              {when(c.createdAt)} · {revisedCategory(c.details)}: {shown(c.details.oldScore) ?? '—'} → <strong>{shown(c.details.newScore)}</strong>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const OPEN: Filter = { status: 'open', category: '', wallet: '' };

function page(f: Filter, cursor?: string) {
  const query = {
    ...(f.status !== 'all' ? { status: f.status } : {}),
    ...(f.category ? { category: f.category } : {}),
    ...(f.wallet ? { walletAddress: f.wallet } : {}),
    limit: 20,
    ...(cursor ? { cursor } : {}),
  };
  return call(client.GET('/api/v1/disputes', { params: { query } }));
}

export function DisputesQueue({ admin, onAction }: { admin: string; onAction: () => void }) {
  const { form, setForm, filter, setFilter, paged: l } = useFilteredPages(OPEN, page, (p) => p.disputes);
  const items = l.items;
  const changed = () => {
    l.reload();
    onAction();
  };
  return (
    <Section id="disputes-queue" title="Disputes queue" intro="Every wallet's disputes, newest first: move them through the lifecycle, resolve with notes, revise the score.">
      <FilterForm label="Filter the disputes queue" submit="Show disputes" onApply={() => setFilter({ ...form, wallet: form.wallet.trim() })}>
        <Field label="Status">
          <Select name="queueStatus" value={form.status} onChange={(status) => setForm({ ...form, status })} options={FILTERS} />
        </Field>
        <Field label="Category">
          <CategorySelect name="queueCategory" value={form.category} onChange={(category) => setForm({ ...form, category })} first={['', 'Any']} />
        </Field>
        <Field label="Wallet address (optional)">
          <input name="adminWallet" value={form.wallet} onInput={(e) => setForm({ ...form, wallet: e.currentTarget.value })} placeholder="0x…" />
        </Field>
      </FilterForm>
      <Status error={l.error} testid="admin-disputes" />
      {l.data && (
        <p role="status" data-testid="queue-count">
          {plural(l.data.count, 'dispute')} {l.data.count === 1 ? 'matches' : 'match'}.
        </p>
      )}
      <ul class="list" data-testid="queue">
        {items.map((d) => (
          <DisputeAdmin key={`${d.id}:${d.status}`} d={d} admin={admin} onChange={changed} />
        ))}
        {l.data && items.length === 0 && <li>{filter.status === 'open' ? 'None open.' : 'No disputes match.'}</li>}
      </ul>
      <LoadMore paged={l} label="Load more disputes" testid="queue-more" />
      {filter.wallet && <Revisions wallet={filter.wallet} tick={l.data} />}
    </Section>
  );
}
