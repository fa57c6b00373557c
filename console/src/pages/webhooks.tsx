// Webhooks of the console key: register (secret shown once), test, deliveries with status and response,
// replay what did not get through, enable an inactive one, delete. While a delivery is on its way the list is
// read again each second (for half a minute), and the webhook's "last delivery" follows once one arrives.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ListItem, Schemas } from '@credence/sdk';
import { call, keyed as client, plural } from '../api.ts';
import { Copy, Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { Table } from '../ui/widgets.tsx';

type Hook = Schemas['Webhook'];

type DeliveryStatus = ListItem<'/api/v1/webhooks/{id}/deliveries'>['status'];
/** A delivery in one of these is settled: no more attempts to wait for. */
const FINAL = new Set<DeliveryStatus>(['delivered', 'failed']);

function Deliveries({ hook, tick, onDelivered }: { hook: Hook; tick: number; onDelivered: () => void }) {
  const [poll, setPoll] = useState(0);
  const l = useLoad(() => call(client.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { limit: 20 } } })), [hook.id, tick, poll]);
  const polls = useRef(0);
  const delivered = useRef<number | null>(null);
  useEffect(() => void (polls.current = 0), [tick]);
  useEffect(() => {
    const list = l.data?.deliveries;
    if (!list) return;
    const count = list.filter((d) => d.status === 'delivered').length;
    // a delivery arrived since the last read: the webhook's "last delivery" changed
    if (delivered.current !== null && count > delivered.current) onDelivered();
    delivered.current = count;
    if (!list.some((d) => !FINAL.has(d.status)) || polls.current >= 30) return;
    const t = setTimeout(() => {
      polls.current++;
      setPoll((p) => p + 1);
    }, 1000);
    return () => clearTimeout(t);
  }, [l.data]);
  return (
    <div>
      <Status error={l.error} testid="deliveries" />
      {l.data && l.data.deliveries.length === 0 && <p>No deliveries yet.</p>}
      {l.data && l.data.deliveries.length > 0 && (
        <Table columns={['Event', 'Status', 'Attempts (response)', 'Created']} label="Deliveries" responsive testid="deliveries-table">
          {l.data.deliveries.map((d) => (
            <tr key={d.id} data-testid="delivery-row">
              <td data-label="Event">
                {d.event}
                {d.walletAddress ? <small> {d.walletAddress}</small> : null}
              </td>
              <td data-label="Status" data-testid="delivery-status">{d.status}</td>
              <td data-label="Attempts">
                {d.attempts.map((t) => (
                  <div key={t.attempt}>
                    #{t.attempt}: {t.statusCode != null ? `HTTP ${t.statusCode}` : 'no answer'}
                    {t.error && t.error !== `HTTP ${t.statusCode}` ? ` (${t.error})` : ''}, {t.durationMs} ms
                  </div>
                ))}
              </td>
              <td data-label="Created">{when(d.createdAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

function HookRow({ hook, onChange }: { hook: Hook; onChange: () => void }) {
  const [tick, setTick] = useState(0);
  const a = useAction();
  const act = (fn: () => Promise<string>) =>
    void a.run(async () => {
      const msg = await fn();
      setTick((t) => t + 1);
      onChange();
      return msg;
    });
  return (
    <li class="row" data-testid="webhook">
      <p>
        <code>{hook.url}</code> · {hook.walletAddressFilter ? `only ${hook.walletAddressFilter}` : 'all addresses'} ·{' '}
        <span class="badge" data-testid="webhook-active">{hook.isActive ? 'active' : 'inactive'}</span> · {plural(hook.consecutiveFailures, 'failure')} in a row · last delivery{' '}
        <span data-testid="webhook-last-delivery">{when(hook.lastDeliveryAt)}</span>
      </p>
      <p class="actions">
        <button type="button" class="secondary" disabled={a.busy} onClick={() => act(async () => (await call(client.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } })), 'Test event queued.'))}>
          Send test event
        </button>
        <button
          type="button"
          class="secondary"
          disabled={a.busy}
          onClick={() =>
            act(async () => {
              const r = await call(client.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id: hook.id } }, body: { since: hook.createdAt } }));
              return `${plural(r.requeued, 'delivery', 'deliveries')} queued again.`;
            })
          }
        >
          Replay undelivered
        </button>
        {!hook.isActive && (
          <button type="button" class="secondary" disabled={a.busy} onClick={() => act(async () => (await call(client.POST('/api/v1/webhooks/{id}/enable', { params: { path: { id: hook.id } } })), 'Webhook enabled.'))}>
            Enable
          </button>
        )}
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setTick((t) => t + 1);
            onChange();
          }}
        >
          Refresh deliveries
        </button>
        <button type="button" class="danger" disabled={a.busy} onClick={() => act(async () => (await call(client.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: hook.id } } })), 'Webhook deleted.'))}>
          Delete
        </button>
      </p>
      <Status error={a.error} ok={a.ok} testid="webhook-action" />
      <Deliveries hook={hook} tick={tick} onDelivered={onChange} />
    </li>
  );
}

export function Webhooks({ keyId }: { keyId: string | null }) {
  const l = useLoad(() => call(client.GET('/api/v1/webhooks')), [keyId]);
  const [url, setUrl] = useState('');
  const [filter, setFilter] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const a = useAction();
  return (
    <Section id="webhooks" title="Webhooks" intro="Signed score.updated deliveries, retried with backoff (live keys: Starter plan and above; test keys: test events, free).">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            const r = await call(client.POST('/api/v1/webhooks', { body: { url, ...(filter ? { walletAddress: filter } : {}) } }));
            setSecret(r.secret);
            setUrl('');
            l.reload();
            return 'Webhook registered.';
          });
        }}
      >
        <Field label="Endpoint URL">
          <input name="webhookUrl" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required />
        </Field>
        <Field label="Only this wallet (optional)">
          <input name="webhookFilter" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} placeholder="0x…" />
        </Field>
        <button type="submit" disabled={a.busy}>
          Register webhook
        </button>
      </form>
      <Status error={a.error} ok={a.ok} testid="webhook-create" />
      {secret && (
        <div class="secret" data-testid="webhook-secret">
          <p>Signing secret (shown once): verify deliveries with it.</p>
          <p>
            <code class="mono">{secret}</code> <Copy text={secret} label="Copy secret" />
          </p>
        </div>
      )}
      <Status error={l.error} testid="webhooks" />
      {l.data && (
        <ul class="list">
          {l.data.webhooks.map((h) => (
            <HookRow key={h.id} hook={h} onChange={l.reload} />
          ))}
          {l.data.webhooks.length === 0 && <li>No webhooks.</li>}
        </ul>
      )}
    </Section>
  );
}
