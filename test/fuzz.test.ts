// CI's budget of the schema-driven fuzzer (scripts/fuzz.ts runs 10,000+): every operation of the OpenAPI
// document with hostile input; no 500, every error in the documented {error, details} body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { App } from '../src/platform/http/types.js';
import { adminWallet, testConfig } from './helpers/app.js';
import { testDatabase } from './helpers/db.js';
import { fuzzCredentials, runFuzz } from '../scripts/fuzz.js';

const BUDGET = Number(process.env.CREDENCE_FUZZ_REQUESTS ?? 1500);

let app: App;
beforeAll(async () => {
  app = await buildApp(
    testConfig({ roles: ['api'], ingestOnRead: false, claimsPerIpPerMinute: 1_000_000, claimsPerCreditorPerMinute: 1_000_000 }),
    {
      db: await testDatabase(),
      logger: false,
      secrets: {},
    },
  );
  await app.ready();
});
afterAll(() => app.close());

describe('fuzz', () => {
  it(`${BUDGET} schema-driven hostile requests: no 500, every error in the documented body`, async () => {
    const result = await runFuzz(app, { requests: BUDGET, seed: 14, credentials: await fuzzCredentials(app, adminWallet as never) });
    expect(result.operations).toBeGreaterThan(40);
    expect(result.requests).toBe(BUDGET);
    expect(result.failures.slice(0, 40).map((f) => `${f.status} ${f.request} -> ${f.body}`)).toEqual([]);
  }, 600_000);
});
