// Admin: the audit log (who did what to which record, and when), filtered by action, actor and record, paged.
import { useEffect, useState } from 'preact/hooks';
import { call, client } from '../api.ts';
import { Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';

const ACTIONS = ['dispute.status', 'score.revised', 'api_key.create', 'api_key.rotate', 'api_key.revoke', 'api_key.upgrade', 'api_key.downgrade', 'api_key.plan_change', 'api_key.cancel'];

interface Filter {
  action: string;
  actor: string;
  target: string;
}

interface Entry {
  id: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  createdAt: string;
}

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

/** `tick` changes when an action elsewhere on the page may have added entries. */
export function AuditLog({ tick }: { tick: number }) {
  const [form, setForm] = useState<Filter>({ action: '', actor: '', target: '' });
  const [filter, setFilter] = useState<Filter>(form);
  const l = useLoad(() => page(filter), [filter, tick]);
  const [more, setMore] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const m = useAction();
  useEffect(() => {
    setMore([]);
    setCursor(l.data?.nextCursor ?? null);
  }, [l.data]);
  const entries = [...((l.data?.entries ?? []) as Entry[]), ...more];
  return (
    <Section id="audit-log" title="Audit log" intro="Administrative and security-relevant actions, newest first.">
      <form
        class="grid"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ action: form.action.trim(), actor: form.actor.trim(), target: form.target.trim() });
        }}
      >
        <Field label="Action">
          <input name="auditAction" list="audit-actions" value={form.action} onInput={(e) => setForm({ ...form, action: e.currentTarget.value })} placeholder="any" />
        </Field>
        <datalist id="audit-actions">
          {ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <Field label="Actor">
          <input name="auditActor" value={form.actor} onInput={(e) => setForm({ ...form, actor: e.currentTarget.value })} placeholder="admin:0x…" />
        </Field>
        <Field label="Record">
          <input name="auditTarget" value={form.target} onInput={(e) => setForm({ ...form, target: e.currentTarget.value })} placeholder="dispute:…" />
        </Field>
        <button type="submit">Show entries</button>
      </form>
      <Status error={l.error} testid="audit" />
      {l.data && entries.length === 0 && <p>No entries match.</p>}
      {entries.length > 0 && (
        <ul class="list" data-testid="audit-entries">
          {entries.map((e) => (
            <li key={e.id} class="row" data-testid="audit-entry">
              <p>
                <strong data-testid="audit-action">{e.action}</strong> on <code>{e.target}</code>
              </p>
              <p class="muted">
                {when(e.createdAt)} by <code>{e.actor}</code>
              </p>
              {Object.keys(e.details).length > 0 && (
                <p>
                  <code>{JSON.stringify(e.details)}</code>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button
          type="button"
          class="secondary"
          disabled={m.busy}
          onClick={() =>
            void m.run(async () => {
              const r = await page(filter, cursor);
              setMore((x) => [...x, ...(r.entries as Entry[])]);
              setCursor(r.nextCursor);
            })
          }
        >
          Load more entries
        </button>
      )}
      <Status error={m.error} testid="audit-more" />
    </Section>
  );
}
