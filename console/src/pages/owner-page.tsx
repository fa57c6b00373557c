// The wallet owner's page: a key for the console first, then scores and history, claims and disputes,
// identity and proofs.
import { useState } from 'preact/hooks';
import { storedKey, type Session } from '../session.ts';
import { KeySetup } from './key-setup.tsx';
import { Scores } from './scores.tsx';
import { Claims, Disputes } from './disputes.tsx';
import { Identity } from './identity.tsx';
import { Proof } from './proof.tsx';

export function OwnerPage({ s, keyTick, onKey }: { s: Session; keyTick: number; onKey: () => void }) {
  const [did, setDid] = useState<string | null>(null);
  if (!storedKey(s.address)) return <KeySetup address={s.address} onKey={onKey} />;
  return (
    <div key={keyTick}>
      <Scores address={s.address} onDid={setDid} />
      <Claims address={s.address} />
      <Disputes address={s.address} />
      <Identity address={s.address} did={did} onDid={setDid} />
      <Proof address={s.address} />
    </div>
  );
}
