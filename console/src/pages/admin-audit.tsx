// Admin: the audit log (who did what to which record, and when), filtered by action, actor and record, paged.
import { call, client } from '../api.ts';
import { Field, Section, Status, when } from '../ui/kit.tsx';
import { FilterForm, LoadMore, useFilteredPages } from '../ui/widgets.tsx';

/** The actions recorded, in words (the code is what the Action filter takes). */
const LABELS: Record<string, string> = {
  'dispute.status': 'Dispute status changed',
  'score.revised': 'Score revised',
  'api_key.create': 'API key created',
  'api_key.rotate': 'API key rotated',
  'api_key.revoke': 'API key revoked',
  'api_key.upgrade': 'Plan upgraded',
  'api_key.downgrade': 'Plan downgraded',
  'api_key.plan_change': 'Plan changed',
  'api_key.cancel': 'Subscription cancelled',
  'subscription.updated': 'Subscription updated',
  'checkout.superseded': 'Checkout superseded',
};
const ACTIONS = Object.keys(LABELS);
const labelOf = (action: string) => LABELS[action] ?? action.replace(/[._]/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** camelCase detail names in words: resolutionNotes -> "resolution notes". */
const words = (k: string) => k.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
const valueText = (v: unknown) => (v === null ? 'none' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** An entry's details as a sentence where the action is known, the rest as "name: value" pairs. */
function detailText(action: string, d: Record<string, unknown>): { sentence: string | null; rest: [string, unknown][] } {
  const used = new Set<string>();
  const take = (k: string) => (used.add(k), d[k]);
  let sentence: string | null = null;
  if (action === 'dispute.status' && 'to' in d) sentence = `From ${take('from') ?? '—'} to ${take('to')}.`;
  else if (action === 'score.revised' && 'newScore' in d) sentence = `${take('category') ?? 'Score'} from ${take('oldScore') ?? 'none'} to ${take('newScore')}.`;
  else if ((action === 'api_key.upgrade' || action === 'api_key.downgrade' || action === 'api_key.plan_change') && 'to' in d) sentence = `From ${take('from') ?? '—'} to ${take('to')}.`;
  else if (action === 'api_key.create' && 'tier' in d) sentence = `${take('tier')}, ${take('environment') ?? 'live'}.`;
  else if (action === 'api_key.rotate' && 'graceSeconds' in d) sentence = `The previous secret works ${take('graceSeconds')} seconds more.`;
  const rest = Object.entries(d).filter(([k, v]) => !used.has(k) && v !== undefined && v !== null && v !== '');
  return { sentence, rest };
}

interface Filter {
  action: string;
  actor: string;
  target: string;
}

const ANY: Filter = { action: '', actor: '', target: '' };

function page(f: Filter, cursor?: string) {
  const query = {
    ...(f.action ? { action: f.action } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.target ? { target: f.target } : {}),
    limit: 25,
    ...(cursor ? { cursor } : {}),
  };
  return call(client.GET('/api/v1/audit-log', { params: { query } }));
}

function AuditDetails({ action, details }: { action: string; details: Record<string, unknown> }) {
  const { sentence, rest } = detailText(action, details);
  if (!sentence && rest.length === 0) return null;
  return (
    <div data-testid="audit-details">
      {sentence && <p>{sentence}</p>}
      {rest.length > 0 && (
        <dl class="facts">
          {rest.map(([k, v]) => (
            <>
              <dt key={`${k}-t`}>{words(k)}</dt>
              <dd key={`${k}-d`}>{valueText(v)}</dd>
            </>
          ))}
        </dl>
      )}
    </div>
  );
}

/** `tick` changes when an action elsewhere on the page may have added entries. */
export function AuditLog({ tick }: { tick: number }) {
  const { form, setForm, setFilter, paged: l } = useFilteredPages(ANY, page, (p) => p.entries, [tick]);
  const entries = l.items;
  return (
    <Section id="audit-log" title="Audit log" intro="Administrative and security-relevant actions, newest first.">
      <FilterForm
        label="Filter the audit log"
        submit="Show entries"
        onApply={() => setFilter({ action: form.action.trim(), actor: form.actor.trim(), target: form.target.trim() })}
      >
        <Field label="Action">
          <input name="auditAction" list="audit-actions" value={form.action} onInput={(e) => setForm({ ...form, action: e.currentTarget.value })} placeholder="any" />
        </Field>
        <datalist id="audit-actions">
          {ACTIONS.map((a) => (
            <option key={a} value={a}>
              {LABELS[a]}
            </option>
          ))}
        </datalist>
        <Field label="Actor">
          <input name="auditActor" value={form.actor} onInput={(e) => setForm({ ...form, actor: e.currentTarget.value })} placeholder="admin:0x…" />
        </Field>
        <Field label="Record">
          <input name="auditTarget" value={form.target} onInput={(e) => setForm({ ...form, target: e.currentTarget.value })} placeholder="dispute:…" />
        </Field>
      </FilterForm>
      <Status error={l.error} testid="audit" />
      {l.data && entries.length === 0 && <p>No entries match.</p>}
      {entries.length > 0 && (
        <ul class="list" data-testid="audit-entries">
          {entries.map((e) => (
            <li key={e.id} class="row" data-testid="audit-entry">
              <p>
                <strong data-testid="audit-action">{labelOf(e.action)}</strong> on <code>{e.target}</code> <small class="muted">({e.action})</small>
              </p>
              <p class="muted">
                {when(e.createdAt)} by <code>{e.actor}</code>
              </p>
              <AuditDetails action={e.action} details={e.details} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore paged={l} label="Load more entries" testid="audit-more" />
    </Section>
  );
}
