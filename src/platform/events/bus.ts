// In-process event bus, fanned out to other instances through Redis pub/sub when REDIS_URL is set.
// Delivery guarantees for webhooks come from the outbox, not from here: the bus is best-effort.
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

export type Handler<T = unknown> = (payload: T) => void | Promise<void>;

export interface EventBus {
  /** Dispatches locally at once and to every other instance through Redis. */
  publish<T>(topic: string, payload: T): void;
  /** `localOnly`: only what this instance published (counting work done here, e.g. metrics). */
  subscribe<T>(topic: string, handler: Handler<T>, opts?: { localOnly?: boolean }): () => void;
  close(): Promise<void>;
}

export function createEventBus(opts: {
  instanceId: string;
  channel: string;
  redis?: Redis | null;
  subscriber?: Redis | null;
  onError?: (err: unknown, topic: string) => void;
  /** false while Redis is down: messages then stay local (best-effort by design; the outbox carries webhooks) */
  redisUp?: () => boolean;
}): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const dispatch = (topic: string, payload: unknown, local = false) => {
    const handlers = local ? [...emitter.listeners(topic), ...emitter.listeners(`local:${topic}`)] : emitter.listeners(topic);
    for (const h of handlers as Handler[]) {
      try {
        const r = h(payload);
        if (r && typeof (r as Promise<void>).catch === 'function') (r as Promise<void>).catch((e) => opts.onError?.(e, topic));
      } catch (e) {
        opts.onError?.(e, topic);
      }
    }
  };
  if (opts.subscriber) {
    // A Redis unreachable at start fails the first SUBSCRIBE (MaxRetriesPerRequestError): handled, and tried again
    // at every reconnect until it takes (from then on ioredis re-subscribes by itself).
    const sub = opts.subscriber;
    let subscribed = false;
    const trySubscribe = () => {
      if (subscribed) return;
      sub.subscribe(opts.channel).then(
        () => void (subscribed = true),
        (e) => opts.onError?.(e, 'redis'),
      );
    };
    trySubscribe();
    sub.on('ready', trySubscribe);
    opts.subscriber.on('message', (_ch: string, raw: string) => {
      try {
        const msg = JSON.parse(raw) as { from: string; topic: string; payload: unknown };
        if (msg.from !== opts.instanceId) dispatch(msg.topic, msg.payload);
      } catch (e) {
        opts.onError?.(e, 'redis');
      }
    });
  }
  return {
    publish(topic, payload) {
      dispatch(topic, payload, true);
      if (opts.redis && (opts.redisUp?.() ?? true)) {
        opts.redis.publish(opts.channel, JSON.stringify({ from: opts.instanceId, topic, payload })).catch((e) => opts.onError?.(e, topic));
      }
    },
    subscribe(topic, handler, o) {
      const name = o?.localOnly ? `local:${topic}` : topic;
      emitter.on(name, handler as Handler);
      return () => emitter.off(name, handler as Handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
