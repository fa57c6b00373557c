// Live tail of score changes of one wallet through the hub (/hubs/scores, the official SignalR client):
// best effort by nature, like any hub.
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { HubScoreUpdated } from '@credence/sdk';
import { CATEGORY_NAMES } from '../api.ts';
import { storedKey } from '../session.ts';
import { Field, Section, Status } from '../ui/kit.tsx';

/** The hub's message, and when this page received it. */
type Update = HubScoreUpdated & { at: string };

export function LiveTail({ address }: { address: string }) {
  const [target, setTarget] = useState(address);
  const [state, setState] = useState<'off' | 'connecting' | 'live' | 'stopped'>('off');
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<Update[]>([]);
  const conn = useRef<HubConnection | null>(null);

  useEffect(() => () => void conn.current?.stop(), []);

  async function start() {
    setError(null);
    setState('connecting');
    try {
      await conn.current?.stop();
      const key = storedKey(address);
      const c = new HubConnectionBuilder()
        .withUrl('/hubs/scores', key ? { accessTokenFactory: () => key } : {})
        .withAutomaticReconnect()
        .configureLogging(LogLevel.None)
        .build();
      c.on('ScoreUpdated', (u: HubScoreUpdated) => setEvents((list) => [{ ...u, at: new Date().toLocaleTimeString() }, ...list].slice(0, 100)));
      c.onclose(() => setState((st) => (st === 'stopped' ? st : 'off')));
      await c.start();
      await c.invoke('SubscribeToAddress', target.trim());
      conn.current = c;
      setState('live');
    } catch (e) {
      setState('off');
      setError(e instanceof Error ? e.message : String(e));
    }
  }

  async function stop() {
    const c = conn.current;
    conn.current = null;
    setState('stopped');
    await c?.stop();
  }

  return (
    <Section id="live" title="Live tail of score events" intro="Score changes pushed by the hub as they happen.">
      <form
        class="grid"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <Field label="Wallet to follow">
          <input name="tailAddress" value={target} onInput={(e) => setTarget(e.currentTarget.value)} />
        </Field>
        <p class="actions">
          <button type="submit" disabled={state === 'connecting'}>
            {state === 'live' ? 'Follow this wallet instead' : 'Start'}
          </button>
          {(state === 'live' || state === 'connecting') && (
            <button type="button" class="secondary" onClick={() => void stop()}>
              Stop
            </button>
          )}
        </p>
      </form>
      <p role="status" data-testid="tail-state">
        Hub: {state === 'stopped' ? 'stopped (no more events are received)' : state}
      </p>
      <Status error={error} testid="tail" />
      <ul class="list" aria-live="polite" data-testid="tail-events">
        {events.map((u, i) => (
          <li key={i}>
            {u.at} · <code>{u.address}</code> {CATEGORY_NAMES[u.category] ?? u.category}: {u.oldScore ?? '—'} → <strong>{u.newScore}</strong>
          </li>
        ))}
      </ul>
    </Section>
  );
}
