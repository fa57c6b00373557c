// Deliveries to a developer's machine, as `stripe listen` does it: the server cannot reach a laptop, so
// `credence webhooks listen` opens a stream (POST /webhooks/listen) that creates a temporary webhook whose URL is
// `credence-listen://<token>`. The delivery worker treats it like any webhook (outbox row, signing, attempts,
// retries); only the last hop differs: instead of an HTTP POST, the signed delivery (body and headers) goes down
// the listener's stream, the CLI forwards it to its local URL and acknowledges with the local status, which is
// the attempt's outcome. Across instances the stream may be held by another instance than the worker: the
// delivery and its acknowledgement then travel over the event bus (Redis).
import { randomBytes } from 'node:crypto';
import type { EventBus } from '../../platform/events/bus.js';
import { attemptResult, type SendResult, type Sender } from './sender.js';

export const RELAY_SCHEME = 'credence-listen:';
const OUT = 'webhooks.relay.out';
const ACK = 'webhooks.relay.ack';

export interface RelayDelivery {
  token: string;
  deliveryId: string;
  headers: Record<string, string>;
  body: string;
}

export interface RelayAck {
  token: string;
  deliveryId: string;
  /** the local receiver's status; null when it could not be reached */
  statusCode: number | null;
  error: string | null;
}

export const relayUrl = (token: string) => `${RELAY_SCHEME}//${token}`;
export const relayToken = (url: string): string | null => (url.startsWith(`${RELAY_SCHEME}//`) ? url.slice(RELAY_SCHEME.length + 2) : null);
export const newRelayToken = () => randomBytes(16).toString('hex');

export function createRelay(deps: { bus: EventBus; distributed: boolean; timeoutMs?: number }) {
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const listeners = new Map<string, { write(d: RelayDelivery): void; end(): void }>();
  const waiting = new Map<string, { token: string; resolve(a: RelayAck): void }>();
  deps.bus.subscribe<RelayDelivery>(OUT, (d) => listeners.get(d.token)?.write(d));
  deps.bus.subscribe<RelayAck>(ACK, (a) => {
    const w = waiting.get(a.deliveryId);
    if (w && w.token === a.token) w.resolve(a);
  });

  function relay(token: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    const result = attemptResult();
    const deliveryId = headers['webhook-id'] ?? '';
    const local = listeners.get(token);
    // Without a bus reaching other instances, a listener not held here is not connected at all.
    if (!local && !deps.distributed)
      return Promise.resolve(result({ error: 'no listener connected (credence webhooks listen has exited)' }));
    return new Promise<SendResult>((resolve) => {
      const finish = (r: Partial<SendResult>) => {
        clearTimeout(timer);
        waiting.delete(deliveryId);
        signal?.removeEventListener('abort', onAbort);
        resolve(result(r));
      };
      const timer = setTimeout(() => finish({ error: `no acknowledgement from the listener within ${timeoutMs / 1000} s` }), timeoutMs);
      const onAbort = () => finish({ error: 'aborted: shutting down' });
      signal?.addEventListener('abort', onAbort);
      waiting.set(deliveryId, {
        token,
        resolve: (a) => {
          const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
          finish({ ok, statusCode: a.statusCode, error: ok ? null : (a.error ?? `HTTP ${a.statusCode}`) });
        },
      });
      const d: RelayDelivery = { token, deliveryId, headers, body };
      if (local) local.write(d);
      else deps.bus.publish(OUT, d);
    });
  }

  return {
    /** Attaches a listener's stream; returns the function that detaches it. */
    attach(token: string, sink: { write(d: RelayDelivery): void; end(): void }): () => void {
      listeners.set(token, sink);
      return () => {
        if (listeners.get(token) === sink) listeners.delete(token);
      };
    },
    /** The listener's acknowledgement (from whichever instance received it). */
    ack(a: RelayAck) {
      const w = waiting.get(a.deliveryId);
      if (w && w.token === a.token) w.resolve(a);
      else if (deps.distributed) deps.bus.publish(ACK, a);
    },
    /** Ends every stream held here (shutdown: the listeners see the end and say so). */
    closeAll() {
      for (const l of [...listeners.values()]) l.end();
      listeners.clear();
    },
    /** The delivery worker's sender: relay URLs go to their listener, every other URL to `base`. */
    sender(base: Sender): Sender {
      return {
        send(url, headers, body, signal) {
          const token = relayToken(url);
          return token ? relay(token, headers, body, signal) : base.send(url, headers, body, signal);
        },
        close: () => base.close(),
      };
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
