// API keys of the signed-in wallet: create (live or test), list, rotate, revoke; the one the console uses.
import { useState } from 'preact/hooks';
import { call, client } from '../api.ts';
import { storedKey, useKey } from '../session.ts';
import { Copy, Field, Section, Status, useAction, useLoad, when } from '../ui/kit.tsx';
import { ActionButton, Select, Table } from '../ui/widgets.tsx';

const ENVIRONMENTS = [
  ['live', 'live'],
  ['test', 'test (sandbox)'],
] as const;

/** A key shown once (creation or rotation), with a button to make it the console's key. */
function Secret({ address, value, onUse }: { address: string; value: string; onUse: () => void }) {
  return (
    <div class="secret" data-testid="new-key">
      <p>Store this key now: the service never shows it again.</p>
      <p>
        <code class="mono" data-testid="new-key-value">
          {value}
        </code>
      </p>
      <p class="actions">
        <Copy text={value} label="Copy key" />
        <button
          type="button"
          class="secondary"
          onClick={() => {
            useKey(address, value);
            onUse();
          }}
        >
          Use in this console
        </button>
      </p>
    </div>
  );
}

export function Keys({ address, onKeyChange }: { address: string; onKeyChange: () => void }) {
  const l = useLoad(() => call(client.GET('/api/v1/billing/api-keys')), [address]);
  const [org, setOrg] = useState('');
  const [email, setEmail] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'test'>('live');
  const [secret, setSecret] = useState<string | null>(null);
  const a = useAction();
  const current = storedKey(address);
  return (
    <Section id="keys" title="API keys" intro="Keys authenticate your integration (X-API-Key). Test keys (cred_test_…) live in their own sandbox world.">
      <p class="muted" data-testid="console-key">
        The Developer page uses: {current ? <code>{current.slice(0, 14)}…</code> : 'no key'} (your own scores need none: they are read with your session)
      </p>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            const r = await call(client.POST('/api/v1/billing/api-keys', { body: { organizationName: org, contactEmail: email, tier: 'Free', environment } }));
            setSecret(r.apiKey);
            l.reload();
            return `Key ${r.keyPrefix} created (${r.tier}, ${r.environment}).`;
          });
        }}
      >
        <Field label="Organization">
          <input name="keyOrganization" value={org} onInput={(e) => setOrg(e.currentTarget.value)} />
        </Field>
        <Field label="Contact email">
          <input name="keyEmail" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} autocomplete="email" />
        </Field>
        <Field label="Environment">
          <Select name="environment" value={environment} onChange={setEnvironment} options={ENVIRONMENTS} />
        </Field>
        <button type="submit" disabled={a.busy}>
          Create key
        </button>
      </form>
      <Status error={a.error} ok={a.ok} testid="keys" />
      {secret && (
        <Secret
          address={address}
          value={secret}
          onUse={() => {
            setSecret(null);
            onKeyChange();
          }}
        />
      )}
      <Status error={l.error} testid="keys-list" />
      {l.data && (
        <Table columns={['Key', 'Tier', 'Status', 'Created', 'Last used', { label: 'Actions', hidden: true }]} label="API keys" responsive testid="keys-table">
          {l.data.keys.map((k) => (
            <tr key={k.id} data-testid="key-row">
              <td data-label="Key">
                <code>{k.keyPrefix}…</code> {k.environment === 'test' && <span class="badge">test</span>}
                <br />
                <small>{k.organizationName}</small>
              </td>
              <td data-label="Tier">{k.tier}</td>
              <td data-label="Status" data-testid="key-status">
                {k.status}
                {k.previousKeyExpiresAt ? ` (old key valid until ${when(k.previousKeyExpiresAt)})` : ''}
              </td>
              <td data-label="Created">{when(k.createdAt)}</td>
              <td data-label="Last used">{when(k.lastUsedAt)}</td>
              <td class="actions">
                {k.status === 'active' && (
                  <>
                    <ActionButton
                      action={a}
                      kind="secondary"
                      run={async () => {
                        const r = await call(client.POST('/api/v1/billing/api-keys/{id}/rotate', { params: { path: { id: k.id } }, body: { gracePeriodSeconds: 3600 } }));
                        setSecret(r.apiKey);
                        l.reload();
                        return `Key ${k.keyPrefix} rotated: the old one works for one more hour.`;
                      }}
                    >
                      Rotate
                    </ActionButton>{' '}
                    <ActionButton
                      action={a}
                      kind="danger"
                      run={async () => {
                        await call(client.DELETE('/api/v1/billing/api-keys/{id}', { params: { path: { id: k.id } } }));
                        l.reload();
                        return `Key ${k.keyPrefix} revoked.`;
                      }}
                    >
                      Revoke
                    </ActionButton>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
