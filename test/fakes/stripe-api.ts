// A stand-in for Stripe's HTTP API (outside our machine), answering the one call Credence makes:
// POST /v1/checkout/sessions. The real Stripe SDK talks to it unchanged (host/port/protocol settings).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export async function startFakeStripe() {
  const sessions: Record<string, string>[] = [];
  const state = { failNext: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        if (state.failNext > 0) {
          state.failNext--;
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }));
          return;
        }
        const form = Object.fromEntries(new URLSearchParams(body));
        sessions.push(form);
        const id = `cs_test_${randomBytes(8).toString('hex')}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id, object: 'checkout.session', mode: form.mode, url: `https://checkout.stripe.com/c/pay/${id}`, metadata: {} }),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'not found' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    get failNext() {
      return state.failNext;
    },
    set failNext(v: number) {
      state.failNext = v;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
