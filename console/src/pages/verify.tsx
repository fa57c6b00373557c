// /console/verify#proof=0x...: checks a shared proof with POST /reputation/verify (a signed-in wallet's session, or
// any API key) and says what it proves: the claim (category and threshold, or age), whose it is and until when.
// Those are read from the proof's own public signals, shown only once the service found the proof sound.
import { useState } from 'preact/hooks';
import { CATEGORIES, decodeProof, type Schemas } from '@credence/sdk';
import { call, keyed, own, CATEGORY_NAMES } from '../api.ts';
import { Field, Section, Status, useAction } from '../ui/kit.tsx';

type Result = Schemas['VerifyProofResponse'];

/** What a sound proof states, in words, from its public signals (order: see sdk/src/proofs.ts). */
export function provenClaim(proof: string): { claim: string; category?: string; threshold?: number } | null {
  const d = decodeProof(proof);
  if (!d) return null;
  const [p0, p1] = d.publicSignals;
  if (d.proofType === 'ScoreAboveThreshold') {
    const c = CATEGORIES[Number(p1)];
    const name = c ? CATEGORY_NAMES[c] : `category ${p1}`;
    return { claim: `its ${name} score is at least ${p0} (of 1000)`, category: c ?? p1, threshold: Number(p0) };
  }
  if (d.proofType === 'KYCVerified') return { claim: 'it passed identity verification (KYC)' };
  return { claim: `its holder is at least ${p1} years old` };
}

export function Verify({ signedIn }: { signedIn: boolean }) {
  const initial = new URLSearchParams(location.hash.slice(1)).get('proof') ?? '';
  const [proof, setProof] = useState(initial);
  const [key, setKey] = useState('');
  const [result, setResult] = useState<{ r: Result; proof: string } | null>(null);
  const a = useAction();
  const claim = result?.r.valid ? provenClaim(result.proof) : null;
  return (
    <Section id="verify" title="Verify a proof">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void a.run(async () => {
            setResult(null);
            const p = proof.trim();
            // signed in: the session verifies (no key); otherwise the pasted key
            const via = signedIn ? own : keyed;
            if (!signedIn && key) keyed.setApiKey(key.trim());
            setResult({ r: await call(via.POST('/api/v1/reputation/verify', { body: { proof: p } })), proof: p });
          });
        }}
      >
        <Field label="Proof">
          <textarea name="proof" rows={4} class="mono" value={proof} onInput={(e) => setProof(e.currentTarget.value)} />
        </Field>
        {!signedIn && (
          <Field label="Your API key" hint="Verifying costs no query, but needs a key or a session: sign in with your wallet, or paste a key.">
            <input name="verifyKey" value={key} onInput={(e) => setKey(e.currentTarget.value)} autocomplete="off" />
          </Field>
        )}
        <button type="submit" disabled={a.busy || !proof.trim()}>
          Verify
        </button>
      </form>
      <Status error={a.error} testid="verify" />
      {result && result.r.valid && (
        <div class="ok-box" role="status" data-testid="verify-result">
          <p class="ok">Valid proof{result.r.environment === 'test' ? ' (sandbox: made with a test key, about sandbox data)' : ''}.</p>
          <dl class="facts">
            <dt>Proves</dt>
            <dd data-testid="verify-claim">{claim ? `that ${claim.claim}` : 'a statement this console cannot read'}</dd>
            {claim?.category && (
              <>
                <dt>Category</dt>
                <dd data-testid="verify-category">{claim.category}</dd>
                <dt>Threshold</dt>
                <dd data-testid="verify-threshold">{claim.threshold}</dd>
              </>
            )}
            <dt>Subject</dt>
            <dd>
              <code data-testid="verify-subject">{result.r.subject}</code>{' '}
              <span class="muted">(the wallet it is about: check it is the one you deal with)</span>
            </dd>
            <dt>Expires</dt>
            <dd data-testid="verify-expiry">{result.r.validUntil ? new Date(result.r.validUntil * 1000).toLocaleString() : '—'}</dd>
          </dl>
        </div>
      )}
      {result && !result.r.valid && (
        <p class="error" role="status" data-testid="verify-result">
          Not valid{result.r.reason ? `: ${result.r.reason}` : ''}.
        </p>
      )}
    </Section>
  );
}
