// Reads a wallet's scores with an API key, and shows what each error class means.
//   CREDENCE_API_URL=http://127.0.0.1:8080 CREDENCE_API_KEY=cred_test_... node read-scores.mjs 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045
// Prints one JSON line: { address, scores: [{ category, score, tier }], usage }.
import { createCredenceClient, unwrap, CredenceError, AuthenticationError, RateLimitError, ValidationError } from '@credence/sdk';

const [address = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'] = process.argv.slice(2);
const credence = createCredenceClient({
  baseUrl: process.env.CREDENCE_API_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.CREDENCE_API_KEY,
});

try {
  // unwrap() returns the data of a 2xx answer and throws any other as a CredenceError subclass
  const wallet = await unwrap(credence.GET('/api/v1/reputation/{address}', { params: { path: { address } } }));
  const usage = await unwrap(credence.GET('/api/v1/billing/usage'));
  console.log(
    JSON.stringify({
      address: wallet.address,
      scores: wallet.scores.map(({ category, score, tier }) => ({ category, score, tier })),
      usage: { queriesThisMonth: usage.queriesThisMonth, monthlyLimit: usage.monthlyLimit },
    }),
  );
} catch (e) {
  if (e instanceof ValidationError) console.error(`bad input: ${e.fields.map((f) => `${f.field} ${f.message}`).join('; ') || e.details}`);
  else if (e instanceof AuthenticationError) console.error(`check CREDENCE_API_KEY: ${e.details}`);
  else if (e instanceof RateLimitError) console.error(`slow down: retry in ${e.retryAfter ?? '?'} s`);
  else if (e instanceof CredenceError) console.error(`${e.code} (HTTP ${e.status}, request ${e.requestId}): ${e.details}`);
  else throw e;
  process.exitCode = 1;
}
