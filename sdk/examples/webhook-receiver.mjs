// A webhook receiver: checks each delivery's signature with constructEvent and answers 200, or 400 when the
// signature does not hold (so Credence retries and you see it in the deliveries).
//   CREDENCE_WEBHOOK_SECRET=whsec_... PORT=3000 node webhook-receiver.mjs
// Register http://<this host>:3000/webhooks (or run `credence webhooks listen --forward-to http://127.0.0.1:3000/webhooks`).
// Prints one JSON line per verified event: { event, data }.
import { createServer } from 'node:http';
import { constructEvent, WebhookSignatureError } from '@credence/sdk';

const secret = process.env.CREDENCE_WEBHOOK_SECRET;
if (!secret) throw new Error('set CREDENCE_WEBHOOK_SECRET (shown once when the webhook is registered)');

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      // the raw bytes as received: a re-serialised body would not match the signature
      const event = constructEvent(Buffer.concat(chunks), req.headers, secret);
      console.log(JSON.stringify({ event: event.event, data: event.data }));
      res.writeHead(200).end();
    } catch (e) {
      if (!(e instanceof WebhookSignatureError)) throw e;
      console.error(`refused a delivery: ${e.details}`);
      res.writeHead(400).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () =>
  console.error(`listening on http://127.0.0.1:${server.address().port}/webhooks`),
);
