// A real local HTTP receiver for webhook tests: records every request (raw body and headers) and answers
// with whatever the test decides per request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Responder = (r: Received, index: number) => { status: number; headers?: Record<string, string>; delayMs?: number };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: Responder;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const rec: Receiver = { url: '', port: 0, received, respond, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      const index = received.push(r) - 1;
      const a = rec.respond(r, index);
      const send = () => {
        res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
        res.end('ok');
      };
      if (a.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, a.delayMs);
        timers.add(t);
      } else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  rec.port = port;
  rec.url = `http://127.0.0.1:${port}/hook`;
  rec.close = async () => {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return rec;
}
