// A killable TCP proxy on 127.0.0.1 in front of a real Redis or PostgreSQL, for fault tests: the app connects
// through it; `down()` drops every open connection and refuses new ones (the dependency is gone), `up()`
// forwards again (it is back), without restarting anything on either side. `stall()` is the unresponsive kind of
// outage (a hung server, a network that drops packets): open connections are dropped and new ones are accepted
// but never answered, so only the app's own timeouts get it out. `drop()` is a failover or a broken network path:
// every established connection is closed at once, with no goodbye from the server, while new connections still
// go through (the endpoint answers again at once).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** e.g. redis://127.0.0.1:<port> or postgres://...@127.0.0.1:<port>/db */
  url(target: string): string;
  down(): Promise<void>;
  /** Accept new connections but never answer them (and drop the open ones). */
  stall(): Promise<void>;
  /** The open connections go silent (nothing forwarded either way, nothing closed): a server that hangs on
   *  connections the app already holds. `up()` then drops them, as a peer's keepalive eventually would. */
  freeze(): void;
  up(): Promise<void>;
  /** Closes every established connection (no message from the server) and keeps forwarding new ones.
   *  Returns how many it closed. */
  drop(): number;
  readonly open: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const stalled = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let frozen = false;
  let refusing = false;
  let stalling = false;
  const server = net.createServer((client) => {
    if (refusing) return client.destroy();
    if (stalling) {
      // Read and drop whatever the client sends; answer nothing.
      stalled.add(client);
      client.on('error', () => undefined).on('close', () => stalled.delete(client));
      client.resume();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('error', end).on('close', () => (end(), pairs.delete(pair)));
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const dropAll = () => {
    for (const s of [...sockets, ...stalled]) s.destroy();
    sockets.clear();
    stalled.clear();
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async down() {
      refusing = true;
      stalling = false;
      // Stop listening too, so a new connection gets ECONNREFUSED (not accept-then-close). server.close() calls
      // back only once every accepted connection has ended, so they are destroyed before waiting for it.
      const closed = server.listening ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve();
      dropAll();
      await closed;
    },
    async stall() {
      stalling = true;
      refusing = false;
      dropAll();
      if (!server.listening) await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    freeze() {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async up() {
      refusing = false;
      stalling = false;
      for (const s of stalled) s.destroy();
      stalled.clear();
      if (frozen) {
        frozen = false;
        dropAll();
        pairs.clear();
      }
      if (!server.listening) await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    drop() {
      const n = sockets.size / 2;
      dropAll();
      pairs.clear();
      return n;
    },
    get open() {
      return sockets.size / 2;
    },
    async close() {
      refusing = true;
      const closed = server.listening ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve();
      dropAll();
      await closed;
    },
  };
}
