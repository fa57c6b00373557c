// The first calls of an integrator, as the README shows them. Type-checked under `tsc --strict`
// (npm run typecheck:examples) and run against the app by test/sdk/sdk.test.ts.
import { Wallet } from 'ethers';
import { createCredenceClient, signIn, type Schemas } from '../src/index.js';

export async function firstCalls(baseUrl: string, domain: string, wallet = Wallet.createRandom()) {
  const credence = createCredenceClient({ baseUrl });

  // 1. Sign in with Ethereum: nonce, signed EIP-4361 message, JWT.
  const { token } = await signIn(credence, wallet, { domain });
  credence.setToken(token);

  // 2. An API key (shown once: store it).
  const created = await credence.POST('/api/v1/billing/api-keys', {
    body: { organizationName: 'Acme Lending', contactEmail: 'ops@acme.example' },
  });
  if (!created.data) throw new Error(`api key: ${created.error?.error}: ${created.error?.details}`);
  credence.setApiKey(created.data.apiKey);

  // 3. A score, with no optional query parameter.
  const address = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
  const score = await credence.GET('/api/v1/reputation/{address}/{category}', { params: { path: { address, category: 'DEFI_LENDING' } } });
  if (!score.data) throw new Error(`score: ${score.error?.error}`);
  const entry: Schemas['ScoreEntry'] = score.data;

  // 4. A batch of addresses in one category.
  const batch = await credence.POST('/api/v1/reputation/batch', { body: { addresses: [address, wallet.address], category: 'OVERALL' } });
  if (!batch.data) throw new Error(`batch: ${batch.error?.error}`);

  // 5. Usage this month; the rate-limit headers are on every API-key response.
  const usage = await credence.GET('/api/v1/billing/usage');
  if (!usage.data) throw new Error(`usage: ${usage.error?.error}`);
  const remaining: number | null = usage.data.remaining;

  return {
    apiKey: created.data.apiKey,
    entry,
    batch: batch.data,
    usage: usage.data,
    remaining,
    rateLimitRemaining: usage.response.headers.get('x-ratelimit-remaining'),
  };
}
