// Walks every webhook of an API key with `for await`: paginate() follows the cursor page after page.
//   CREDENCE_API_URL=http://127.0.0.1:8080 CREDENCE_API_KEY=cred_test_... node list-webhooks.mjs
// Prints one JSON line: { count, webhooks: [{ id, url, isActive }] }.
import { createCredenceClient } from '@credence/sdk';

const credence = createCredenceClient({
  baseUrl: process.env.CREDENCE_API_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.CREDENCE_API_KEY,
});
const webhooks = [];
for await (const hook of credence.paginate('/api/v1/webhooks', { params: { query: { limit: 50 } } })) {
  webhooks.push({ id: hook.id, url: hook.url, isActive: hook.isActive });
}
console.log(JSON.stringify({ count: webhooks.length, webhooks }));
