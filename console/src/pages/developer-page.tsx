// The developer's page: keys, then (for the key the console uses) plan, usage and webhooks; the hub's live tail.
// With a test key the page is the sandbox: a banner says what it gives (sandbox scores, test webhooks, listen,
// trigger; no quota and no plan to upgrade) instead of errors and upgrade offers that cannot work.
import { storedKey, type Session } from '../session.ts';
import { Keys } from './keys.tsx';
import { Plan } from './plan.tsx';
import { Webhooks } from './webhooks.tsx';
import { LiveTail } from './live-tail.tsx';

export const isTestKey = (key: string | null) => !!key && key.startsWith('cred_test_');

export function SandboxBanner({ keyPrefix }: { keyPrefix: string }) {
  return (
    <div class="notice sandbox" role="note" data-testid="sandbox-banner">
      <h2>Sandbox</h2>
      <p>
        This console uses the test key <code>{keyPrefix}…</code>. Test keys live in the sandbox: deterministic sandbox scores, no quota, and test
        webhooks. Send a test event with “Send test event”, receive events locally with <code>credence webhooks listen</code>, and fire one with{' '}
        <code>credence trigger score.updated</code>. Test keys have no plan to upgrade: for real data, create a live key and use it here.
      </p>
    </div>
  );
}

export function DeveloperPage({ s, keyTick, onKey }: { s: Session; keyTick: number; onKey: () => void }) {
  const key = storedKey(s.address);
  return (
    <div>
      {isTestKey(key) && <SandboxBanner keyPrefix={key!.slice(0, 14)} />}
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
