// The developer's page: keys, then (for the key the console uses) plan, usage and webhooks; the hub's live tail.
import { storedKey, type Session } from '../session.ts';
import { Keys } from './keys.tsx';
import { Plan } from './plan.tsx';
import { Webhooks } from './webhooks.tsx';
import { LiveTail } from './live-tail.tsx';

export function DeveloperPage({ s, keyTick, onKey }: { s: Session; keyTick: number; onKey: () => void }) {
  const key = storedKey(s.address);
  return (
    <div>
      <Keys address={s.address} onKeyChange={onKey} />
      {key ? (
        <div key={keyTick}>
          <Plan keyId={key} />
          <Webhooks keyId={key} />
        </div>
      ) : (
        <p class="panel">Create a key above and choose “Use in this console” to see its usage, plan and webhooks.</p>
      )}
      <LiveTail address={s.address} />
    </div>
  );
}
