// Webhooks of the console key: register (secret shown once), test, deliveries with status and response,
// replay what did not get through, enable an inactive one, delete.
import { useState } from 'preact/hooks';
import { call, client } from '../api.ts';
import { Copy, Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';

interface Hook {
  id: string;
  url: string;
  walletAddressFilter?: string | null;
  isActive: boolean;
  consecutiveFailures: number;
  lastDeliveryAt?: string | null;
  createdAt: string;
}

function Deliveries({ hook, tick }: { hook: Hook; tick: number }) {
  const l = useLoad(() => call(client.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { limit: 20 } } })), [hook.id, tick]);
  return (
    <div>
      <Status error={l.error} testid="deliveries" />
      {l.data && l.data.deliveries.length === 0 && <p>No deliveries yet.</p>}
      {l.data && l.data.deliveries.length > 0 && (
        <div class="scroll" tabIndex={0}>
          <table data-testid="deliveries-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts (response)</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {l.data.deliveries.map((d) => (
                <tr key={d.id} data-testid="delivery-row">
                  <td>
                    {d.event}
                    {d.walletAddress ? <small> {d.walletAddress}</small> : null}
                  </td>
                  <td data-testid="delivery-status">{d.status}</td>
                  <td>
                    {d.attempts.map((t) => (
                      <div key={t.attempt}>
                        #{t.attempt}: {t.statusCode != null ? `HTTP ${t.statusCode}` : 'no answer'}
                        {t.error && t.error !== `HTTP ${t.statusCode}` ? ` (${t.error})` : ''}, {t.durationMs} ms
                      </div>
                    ))}
                  </td>
                  <td>{when(d.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
        <span class="badge" data-testid="webhook-active">{hook.isActive ? 'active' : 'inactive'}</span> · {hook.consecutiveFailures} failure(s) in a row · last delivery{' '}
        {when(hook.lastDeliveryAt)}
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
              return `${r.requeued} delivery(ies) queued again.`;
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
        <button type="button" class="secondary" onClick={() => setTick((t) => t + 1)}>
          Refresh deliveries
        </button>
        <button type="button" class="danger" disabled={a.busy} onClick={() => act(async () => (await call(client.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: hook.id } } })), 'Webhook deleted.'))}>
          Delete
        </button>
      </p>
      <Status error={a.error} ok={a.ok} testid="webhook-action" />
      <Deliveries hook={hook} tick={tick} />
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
    <Section id="webhooks" title="Webhooks" intro="Signed score.updated deliveries, retried with backoff (Starter plan and above).">
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
          {(l.data.webhooks as unknown as Hook[]).map((h) => (
            <HookRow key={h.id} hook={h} onChange={l.reload} />
          ))}
          {l.data.webhooks.length === 0 && <li>No webhooks.</li>}
        </ul>
      )}
    </Section>
  );
}
