// The scores hub: WebSocket connections speaking the SignalR JSON protocol, their address subscriptions,
// keep-alive pings and the server time-out, and the push of ScoreUpdated to the subscribers of an address.
// Pushes are best-effort (a client that is not connected misses them), as with any SignalR hub. Each connection
// lives in one environment: one opened with test credentials receives test events only, every other one
// live events only.
import { WebSocketServer, type WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { isAddress, toChecksum } from '../../platform/http/address.js';
import {
  MessageType,
  PING_FRAME,
  RS,
  closeFrame,
  completion,
  frame,
  invocation,
  parseMessage,
  splitRecords,
  type HubMessage,
} from './protocol.js';

export interface HubOptions {
  keepAliveMs: number;
  clientTimeoutMs: number;
  handshakeTimeoutMs?: number;
  maxSubscriptionsPerConnection?: number;
  log: { warn(obj: object, msg: string): void };
}

export type HubEnvironment = 'live' | 'test';

interface Connection {
  id: string;
  environment: HubEnvironment;
  /** the API key the connection was opened with (null: none, or a sign-in token) */
  keyId: string | null;
  ws: WebSocket;
  handshaken: boolean;
  buffer: string;
  subs: Set<string>;
  openedAt: number;
  lastReceived: number;
  lastSent: number;
}

export interface ScoreUpdatedArgs {
  address: string;
  category: string;
  oldScore: number | null;
  newScore: number;
}

const MAX_BUFFERED = 1 << 20;

export function createHub(o: HubOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const connections = new Set<Connection>();
  const byAddress = new Map<string, Set<Connection>>();
  const maxSubs = o.maxSubscriptionsPerConnection ?? 1000;
  const handshakeTimeout = o.handshakeTimeoutMs ?? 15_000;

  function send(c: Connection, text: string) {
    if (c.ws.readyState !== c.ws.OPEN) return;
    // A client that cannot keep up is dropped rather than buffered without bound.
    if (c.ws.bufferedAmount > MAX_BUFFERED) return drop(c, 'Connection closed: the client is not reading its messages.');
    c.lastSent = Date.now();
    c.ws.send(text);
  }

  function drop(c: Connection, error?: string, allowReconnect?: boolean) {
    if (c.ws.readyState === c.ws.OPEN && c.handshaken) c.ws.send(closeFrame(error, allowReconnect));
    c.ws.close(error ? 1011 : 1000);
    forget(c);
  }

  function forget(c: Connection) {
    if (!connections.delete(c)) return;
    for (const a of c.subs) {
      const set = byAddress.get(a);
      set?.delete(c);
      if (set && set.size === 0) byAddress.delete(a);
    }
    c.subs.clear();
  }

  const methods: Record<string, (c: Connection, args: unknown[]) => void> = {
    subscribetoaddress(c, [address]) {
      const a = checkAddress(address);
      if (c.subs.has(a)) return;
      if (c.subs.size >= maxSubs) throw new Error(`A connection may subscribe to at most ${maxSubs} addresses.`);
      c.subs.add(a);
      let set = byAddress.get(a);
      if (!set) byAddress.set(a, (set = new Set()));
      set.add(c);
    },
    unsubscribefromaddress(c, [address]) {
      const a = checkAddress(address);
      c.subs.delete(a);
      const set = byAddress.get(a);
      set?.delete(c);
      if (set && set.size === 0) byAddress.delete(a);
    },
  };
  const ARITY: Record<string, number> = { subscribetoaddress: 1, unsubscribefromaddress: 1 };

  function onInvocation(c: Connection, m: HubMessage) {
    const target = String(m.target ?? '');
    const method = methods[target.toLowerCase()];
    const args = Array.isArray(m.arguments) ? m.arguments : [];
    let error: string | undefined;
    if (!method) error = `Unknown hub method '${target}'. Methods: SubscribeToAddress(address), UnsubscribeFromAddress(address).`;
    else if (args.length !== ARITY[target.toLowerCase()])
      error = `Invocation of '${target}' expects ${ARITY[target.toLowerCase()]} argument(s), got ${args.length}.`;
    else {
      try {
        method(c, args);
      } catch (e) {
        error = (e as Error).message;
      }
    }
    // Invocations sent with `send` carry no invocationId and get no completion.
    if (typeof m.invocationId === 'string') send(c, completion(m.invocationId, error ? { error } : {}));
  }

  function onRecord(c: Connection, record: string) {
    if (!c.handshaken) {
      const req = safeJson(record) as { protocol?: unknown; version?: unknown } | null;
      if (!req || req.protocol !== 'json' || req.version !== 1) {
        const what =
          req && typeof req.protocol === 'string'
            ? `The protocol '${req.protocol}' version ${String(req.version)} is not supported; use json version 1.`
            : 'Invalid handshake.';
        c.ws.send(frame({ error: what }));
        c.ws.close(1002);
        forget(c);
        return;
      }
      c.handshaken = true;
      c.ws.send(`{}${RS}`);
      c.lastSent = Date.now();
      return;
    }
    const m = parseMessage(record);
    if (!m) return drop(c, 'Connection closed with an error: the message is not valid SignalR JSON.');
    switch (m.type) {
      case MessageType.Invocation:
        return onInvocation(c, m);
      case MessageType.StreamInvocation:
        if (typeof m.invocationId === 'string')
          send(c, completion(m.invocationId, { error: 'Streaming methods are not supported by this hub.' }));
        return;
      case MessageType.Ping:
      case MessageType.CancelInvocation:
      case MessageType.Completion:
      case MessageType.StreamItem:
        return;
      case MessageType.Close:
        c.ws.close(1000);
        forget(c);
        return;
      default:
        return drop(c, `Connection closed with an error: unknown message type ${m.type}.`);
    }
  }

  /** The message (made once, only when someone gets it) to the subscribers of `address` in `environment`. */
  function sendTo(address: string, environment: HubEnvironment, message: () => string, keyId?: string): number {
    const subs = byAddress.get(address.toLowerCase());
    if (!subs || subs.size === 0) return 0;
    let text: string | null = null;
    let n = 0;
    for (const c of subs) {
      if (c.environment !== environment || (keyId !== undefined && c.keyId !== keyId)) continue;
      send(c, (text ??= message()));
      n++;
    }
    return n;
  }

  function attach(ws: WebSocket, connectionId: string, environment: HubEnvironment, keyId: string | null) {
    const now = Date.now();
    const c: Connection = {
      id: connectionId,
      environment,
      keyId,
      ws,
      handshaken: false,
      buffer: '',
      subs: new Set(),
      openedAt: now,
      lastReceived: now,
      lastSent: now,
    };
    connections.add(c);
    ws.on('message', (data, isBinary) => {
      c.lastReceived = Date.now();
      if (isBinary) return drop(c, 'Connection closed with an error: this hub speaks the JSON protocol over text frames only.');
      const { records, rest } = splitRecords(c.buffer + data.toString());
      c.buffer = rest;
      if (c.buffer.length > 64 * 1024) return drop(c, 'Connection closed with an error: message too large.');
      for (const r of records) {
        if (!connections.has(c)) return;
        onRecord(c, r);
      }
    });
    ws.on('close', () => forget(c));
    ws.on('error', (err) => {
      o.log.warn({ err, connectionId }, 'hub connection error');
      forget(c);
    });
  }

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const c of connections) {
        if (!c.handshaken) {
          if (now - c.openedAt > handshakeTimeout) {
            c.ws.close(1002);
            forget(c);
          }
          continue;
        }
        if (now - c.lastReceived > o.clientTimeoutMs) {
          drop(c, 'Server timeout elapsed without receiving a message from the client.');
          continue;
        }
        if (now - c.lastSent >= o.keepAliveMs) send(c, PING_FRAME);
      }
    },
    Math.min(500, Math.max(50, o.keepAliveMs / 4)),
  );
  sweep.unref();

  return {
    upgrade(
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
      connectionId: string,
      environment: HubEnvironment = 'live',
      keyId: string | null = null,
    ) {
      wss.handleUpgrade(req, socket, head, (ws) => attach(ws, connectionId, environment, keyId));
    },

    /**
     * Sends another invocation (e.g. DebtClaimFiled) with one argument to the connections of `environment` subscribed
     * to `address`; how many it went to.
     */
    publishTo(address: string, target: string, arg: unknown, environment: HubEnvironment = 'live') {
      return sendTo(address, environment, () => invocation(target, [arg]));
    },

    /**
     * Sends ScoreUpdated to the connections of `environment` (live by default) subscribed to the change's address;
     * with `keyId`, only to those opened with that API key (a sandbox event one test key triggered).
     */
    publish(change: ScoreUpdatedArgs, environment: HubEnvironment = 'live', keyId?: string) {
      return sendTo(
        change.address,
        environment,
        () =>
          invocation('ScoreUpdated', [
            {
              address: toChecksum(change.address),
              category: change.category,
              oldScore: change.oldScore ?? null,
              newScore: change.newScore,
            },
          ]),
        keyId,
      );
    },

    get connectionCount() {
      return connections.size;
    },

    /** Closes every connection with a close message that lets clients reconnect elsewhere. */
    async close() {
      clearInterval(sweep);
      for (const c of [...connections]) drop(c, 'Server is shutting down.', true);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}

function checkAddress(v: unknown): string {
  if (typeof v !== 'string' || !isAddress(v)) {
    throw new Error(
      `Invalid address '${String(v).slice(0, 100)}': expected 0x followed by 40 hex characters (mixed case must pass its EIP-55 checksum).`,
    );
  }
  return v.toLowerCase();
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

export type Hub = ReturnType<typeof createHub>;
