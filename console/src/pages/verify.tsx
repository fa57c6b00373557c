// /console/verify#proof=0x...: checks a shared proof with POST /reputation/verify (needs any API key).
import { useState } from 'preact/hooks';
import { call, client } from '../api.ts';
import { Field, Section, Status, useAction } from '../ui/kit.tsx';

export function Verify({ hasKey }: { hasKey: boolean }) {
  const initial = new URLSearchParams(location.hash.slice(1)).get('proof') ?? '';
  const [proof, setProof] = useState(initial);
  const [key, setKey] = useState('');
  const [result, setResult] = useState<{ valid: boolean; reason?: string; subject?: string; validUntil?: number } | null>(null);
  const a = useAction();
  return (
    <Section id="verify" title="Verify a proof">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            setResult(null);
            if (!hasKey && key) client.setApiKey(key.trim());
            setResult(await call(client.POST('/api/v1/reputation/verify', { body: { proof: proof.trim() } })));
          });
        }}
      >
        <Field label="Proof">
          <textarea name="proof" rows={4} class="mono" value={proof} onInput={(e) => setProof(e.currentTarget.value)} />
        </Field>
        {!hasKey && (
          <Field label="Your API key" hint="Verifying costs no query, but needs a key: sign in to use yours, or paste one.">
            <input name="verifyKey" value={key} onInput={(e) => setKey(e.currentTarget.value)} autocomplete="off" />
          </Field>
        )}
        <button type="submit" disabled={a.busy || !proof.trim()}>
          Verify
        </button>
      </form>
      <Status error={a.error} testid="verify" />
      {result && (
        <p class={result.valid ? 'ok' : 'error'} role="status" data-testid="verify-result">
          {result.valid
            ? `Valid: a proof about ${result.subject ?? 'its subject'}${result.validUntil ? `, accepted until ${new Date(result.validUntil * 1000).toLocaleString()}` : ''}.`
            : `Not valid${result.reason ? `: ${result.reason}` : ''}.`}
        </p>
      )}
    </Section>
  );
}
