// A stand-in for Stripe's HTTP API (outside our machine), answering the calls Credence makes: checkout sessions,
// subscription retrieve/update/cancel and price creation. The real Stripe SDK talks to it unchanged
// (host/port/protocol settings); bodies are form-encoded as Stripe's are.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export async function startFakeStripe() {
  const sessions: Record<string, string>[] = [];
  const state = { failNext: 0 };
  /** Subscriptions Stripe knows (tests seed them as a completed checkout would create them). */
  const subscriptions = new Map<
    string,
    { id: string; status: string; item: string; price: string; cancel_at_period_end: boolean; metadata: Record<string, string> }
  >();
  /** Every subscription call: method, id and the form fields sent. */
  const subscriptionCalls: { method: string; id: string; form: Record<string, string> }[] = [];
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const subscriptionBody = (s: NonNullable<ReturnType<typeof subscriptions.get>>) => ({
    id: s.id,
    object: 'subscription',
    status: s.status,
    cancel_at_period_end: s.cancel_at_period_end,
    metadata: s.metadata,
    items: { object: 'list', data: [{ id: s.item, object: 'subscription_item', price: { id: s.price, object: 'price' } }] },
  });
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
          JSON.stringify({
            id,
            object: 'checkout.session',
            mode: form.mode,
            url: `https://checkout.stripe.com/c/pay/${id}`,
            metadata: {},
          }),
        );
        return;
      }
      const sub = /^\/v1\/subscriptions\/([^/?]+)/.exec(req.url ?? '');
      if (sub) {
        const form = Object.fromEntries(new URLSearchParams(body));
        subscriptionCalls.push({ method: req.method ?? '', id: sub[1], form });
        const s = subscriptions.get(sub[1]);
        if (!s)
          return json(res, 404, {
            error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${sub[1]}'` },
          });
        if (req.method === 'POST') {
          if (form['items[0][price]']) s.price = form['items[0][price]'];
          if (form.cancel_at_period_end !== undefined) s.cancel_at_period_end = form.cancel_at_period_end === 'true';
          for (const [k, v] of Object.entries(form)) {
            const m = /^metadata\[(.+)\]$/.exec(k);
            if (m) s.metadata[m[1]] = v;
          }
        }
        if (req.method === 'DELETE') s.status = 'canceled';
        return json(res, 200, subscriptionBody(s));
      }
      if (req.method === 'POST' && req.url === '/v1/prices') {
        return json(res, 200, { id: `price_${randomBytes(8).toString('hex')}`, object: 'price' });
      }
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'not found' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    subscriptions,
    subscriptionCalls,
    /** A subscription as a completed Checkout leaves it: active, one item. */
    addSubscription(id: string, metadata: Record<string, string> = {}, price = 'price_initial') {
      subscriptions.set(id, {
        id,
        status: 'active',
        item: `si_${randomBytes(6).toString('hex')}`,
        price,
        cancel_at_period_end: false,
        metadata,
      });
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(v: number) {
      state.failNext = v;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
