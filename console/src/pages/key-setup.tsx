// Key-authenticated reads (scores, disputes, proofs) need an API key. A signed-in wallet creates a Free key
// for the console here (POST /billing/api-keys with its JWT), or pastes one it already has.
import { useState } from 'preact/hooks';
import { call, client } from '../api.ts';
import { useKey } from '../session.ts';
import { Field, Section, Status, useAction } from '../ui/kit.tsx';

export function KeySetup(props: { address: string; onKey: () => void }) {
  const [org, setOrg] = useState('Personal');
  const [email, setEmail] = useState('');
  const [pasted, setPasted] = useState('');
  const a = useAction();
  return (
    <Section id="key-setup" title="An API key for the console" intro="Reading scores, disputes and proofs needs an API key. Create a Free key for this wallet (shown once, kept in this browser), or paste one you have.">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            const r = await call(client.POST('/api/v1/billing/api-keys', { body: { organizationName: org, contactEmail: email, tier: 'Free' } }));
            useKey(props.address, r.apiKey);
            props.onKey();
          });
        }}
      >
        <Field label="Organization or your name">
          <input name="organizationName" value={org} onInput={(e) => setOrg(e.currentTarget.value)} required />
        </Field>
        <Field label="Contact email">
          <input name="contactEmail" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required autocomplete="email" />
        </Field>
        <button type="submit" disabled={a.busy}>
          Create a Free key
        </button>
      </form>
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          useKey(props.address, pasted.trim());
          props.onKey();
        }}
      >
        <Field label="Or paste an API key">
          <input name="apiKey" value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} autocomplete="off" spellcheck={false} />
        </Field>
        <button type="submit" class="secondary" disabled={!pasted.trim()}>
          Use this key
        </button>
      </form>
      <Status error={a.error} testid="key-setup" />
    </Section>
  );
}
