// The wallet owner's page: scores and history, claims and disputes, identity and proofs, all read with the
// wallet's own session (no API key: keys are for integrators, on the Developer page).
import { useState } from 'preact/hooks';
import type { Session } from '../session.ts';
import { Scores } from './scores.tsx';
import { Claims, Disputes } from './disputes.tsx';
import { Identity } from './identity.tsx';
import { Proof } from './proof.tsx';

export function OwnerPage({ s }: { s: Session }) {
  const [did, setDid] = useState<string | null>(null);
  return (
    <div>
      <p class="muted" data-testid="owner-note">
        Signed in as this wallet, you read its own records with your session: no API key, no quota. API keys are for integrating Credence into an
        application: see the <a href="/console/developer">Developer</a> page.
      </p>
      <Scores address={s.address} onDid={setDid} />
      <Claims address={s.address} />
      <Disputes address={s.address} />
      <Identity address={s.address} did={did} onDid={setDid} />
      <Proof address={s.address} />
    </div>
  );
}
