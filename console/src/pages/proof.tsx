// Generate a zero-knowledge proof that my score is at least a threshold, copy it, and share a link that
// verifies it (the proof travels in the link's fragment, which browsers never send to a server). Made with the
// wallet's own session: no API key.
import { useState } from 'preact/hooks';
import type { Category } from '@credence/sdk';
import { call, own as client } from '../api.ts';
import { Copy, Field, Section, Status, useAction } from '../ui/kit.tsx';
import { CategorySelect } from '../ui/widgets.tsx';

export function verifyLink(proof: string): string {
  return `${location.origin}/console/verify#proof=${encodeURIComponent(proof)}`;
}

export function Proof({ address }: { address: string }) {
  const [category, setCategory] = useState<Category>('OVERALL');
  const [threshold, setThreshold] = useState(0);
  const [proof, setProof] = useState<{ proof: string; validUntil?: number } | null>(null);
  const a = useAction();
  return (
    <Section id="proof" title="Prove my score" intro="A Groth16 proof that your score in a category is at least a threshold, without revealing the score.">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            setProof(null);
            const r = await call(client.POST('/api/v1/reputation/prove', { body: { subject: address, proofType: 'ScoreAboveThreshold', category, threshold } }));
            setProof({ proof: r.proof, validUntil: r.publicInputs?.validUntil });
          });
        }}
      >
        <Field label="Category">
          <CategorySelect name="proofCategory" value={category} onChange={setCategory} />
        </Field>
        <Field label="Threshold (0-1000)">
          <input name="threshold" type="number" min={0} max={1000} value={threshold} onInput={(e) => setThreshold(Number(e.currentTarget.value))} />
        </Field>
        <button type="submit" disabled={a.busy}>
          {a.busy ? 'Proving…' : 'Generate proof'}
        </button>
      </form>
      <Status error={a.error} testid="proof" />
      {proof && (
        <div class="result" data-testid="proof-result">
          <Field label="Proof">
            <textarea readOnly rows={4} value={proof.proof} class="mono" />
          </Field>
          {proof.validUntil && <p class="muted">Valid until {new Date(proof.validUntil * 1000).toLocaleString()}.</p>}
          <p class="actions">
            <Copy text={proof.proof} label="Copy proof" />
            <Copy text={verifyLink(proof.proof)} label="Copy verify link" />
            <a href={verifyLink(proof.proof)} data-testid="verify-link">
              Open the verify link
            </a>
          </p>
        </div>
      )}
    </Section>
  );
}
