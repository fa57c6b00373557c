// The README's first calls with viem only (no ethers, no siwe): sign in, an API key, a score, a batch, a proof
// verified offline, every webhook of the key with `for await`, and a webhook delivery checked by constructEvent.
// Compiled with `tsc --strict --exactOptionalPropertyTypes` (tsconfig.viem.json) and run by test/sdk/quickstart.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { createCredenceClient, signIn, unwrap, verifyProofOffline, RateLimitError, type CredenceEvent } from '../src/index.js';

export async function quickStart(baseUrl: string, privateKey: `0x${string}` = generatePrivateKey(), tier: 'Free' | 'Starter' = 'Free') {
  const account = privateKeyToAccount(privateKey);
  const credence = createCredenceClient({ baseUrl, timeoutMs: 20_000, maxRetries: 2 });

  // 1. Sign in with the viem account (domain and uri default to baseUrl's host and origin).
  const { token } = await signIn(credence, account);
  credence.setToken(token);

  // 2. An API key (shown once: store it). Errors are thrown as classes by unwrap().
  const key = await unwrap(
    credence.POST('/api/v1/billing/api-keys', { body: { organizationName: 'Acme Lending', contactEmail: 'ops@acme.example', tier } }),
  );
  credence.setApiKey(key.apiKey);

  // 3. A score and a batch.
  const address = account.address;
  const score = await unwrap(
    credence.GET('/api/v1/reputation/{address}/{category}', { params: { path: { address, category: 'OVERALL' } } }),
  );
  const batch = await unwrap(
    credence.POST('/api/v1/reputation/batch', {
      body: { addresses: [address, '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'], category: 'OVERALL' },
    }),
  );

  // 4. A proof, verified offline with the published keys (fetch them once and keep them).
  const keys = await unwrap(credence.GET('/api/v1/proofs/verification-keys'));
  let verified: Awaited<ReturnType<typeof verifyProofOffline>> | null = null;
  try {
    const proof = await unwrap(
      credence.POST('/api/v1/reputation/prove', {
        body: { subject: address, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 0 },
      }),
    );
    verified = await verifyProofOffline(proof.proof, keys);
  } catch (e) {
    if (!(e instanceof RateLimitError)) throw e;
  }

  // 5. Webhooks (Starter and above): a local receiver, a test delivery, checked with constructEvent.
  let event: CredenceEvent | null = null;
  const hooks: string[] = [];
  if (tier !== 'Free') {
    let secret = '';
    const received = new Promise<CredenceEvent>((resolve, reject) => {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.end('ok');
          server.close();
          try {
            resolve(credence.webhooks.constructEvent(Buffer.concat(chunks), req.headers, secret));
          } catch (err) {
            reject(err);
          }
        });
      });
      server.listen(0, '127.0.0.1', async () => {
        try {
          const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
          const hook = await unwrap(credence.POST('/api/v1/webhooks', { body: { url } }));
          secret = hook.secret;
          await unwrap(credence.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: hook.id } } }));
        } catch (err) {
          server.close();
          reject(err);
        }
      });
    });
    event = await received;
    for await (const hook of credence.paginate('/api/v1/webhooks', { params: { query: { limit: 1 } } })) hooks.push(hook.id);
  }
  return { apiKey: key.apiKey, score, batch, verified, event, hooks };
}

// `node --import tsx sdk/examples/viem-quickstart.ts <baseUrl> [privateKey] [tier]`: runs the calls, prints what
// came back, and exits by itself (nothing is left holding the process: snarkjs's workers are unref'd).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [baseUrl = 'http://127.0.0.1:8080', pk, tier] = process.argv.slice(2);
  const out = await quickStart(baseUrl, (pk as `0x${string}` | undefined) ?? generatePrivateKey(), tier === 'Starter' ? 'Starter' : 'Free');
  console.log(JSON.stringify({ ...out, apiKey: `${out.apiKey.slice(0, 12)}...` }, null, 2));
}
