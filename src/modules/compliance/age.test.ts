import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let key: TestKey;

beforeAll(async () => {
  app = await createTestApp({ config: { legalAges: { JP: 20, 'US-PR': 18 } } });
  key = await createKey(app, 'Enterprise');
});
afterAll(async () => {
  await app?.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: `/api/v1/compliance/${url}`, headers, payload: payload as object });

describe('POST /compliance/verify-age', () => {
  it('without an approved KYC: verified false and proof null, minimumAge defaulting to 21', async () => {
    const res = await post('verify-age', { walletAddress: randomAddress() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      proof: null,
      minimumAge: 21,
      verified: false,
      publicInputs: null,
      reason: 'no_approved_kyc',
      environment: 'live',
    });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    for (const minimumAge of [1, 150])
      expect((await post('verify-age', { walletAddress: randomAddress(), minimumAge })).json().minimumAge).toBe(minimumAge);
  });

  it('validates walletAddress and minimumAge (1-150, integer), needs an API key', async () => {
    for (const [payload, field] of [
      [{ minimumAge: 21 }, 'walletAddress'],
      [{ walletAddress: '0x12' }, 'walletAddress'],
      [{ walletAddress: randomAddress(), minimumAge: 0 }, 'minimumAge'],
      [{ walletAddress: randomAddress(), minimumAge: 151 }, 'minimumAge'],
      [{ walletAddress: randomAddress(), minimumAge: 20.5 }, 'minimumAge'],
      [{ walletAddress: randomAddress(), minimumAge: '21' }, 'minimumAge'],
    ] as const) {
      const res = await post('verify-age', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await post('verify-age', { walletAddress: randomAddress() }, {})).statusCode).toBe(401);
  });
});

describe('POST /compliance/age-verify', () => {
  it('takes the jurisdiction legal age when minimumAge is absent', async () => {
    const cases: [string, number][] = [
      ['US-CA', 21],
      ['us-ny', 21],
      ['US-PR', 18], // configured
      ['JP-13', 20], // configured for the country
      ['GB-ENG', 18],
      ['DE-BY', 18],
    ];
    for (const [jurisdictionCode, age] of cases) {
      const wallet = randomAddress();
      const res = await post('age-verify', { walletAddress: wallet, jurisdictionCode });
      expect(res.statusCode, jurisdictionCode).toBe(200);
      expect(res.json()).toMatchObject({ jurisdictionCode: jurisdictionCode.toUpperCase(), minimumAge: age, verified: false, proof: null });
      expect(res.json().walletAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(res.json().walletAddress.toLowerCase()).toBe(wallet);
    }
    expect(
      (await post('age-verify', { walletAddress: randomAddress(), jurisdictionCode: 'US-CA', minimumAge: 30 })).json().minimumAge,
    ).toBe(30);
  });

  it('validates jurisdictionCode as country-region and minimumAge as 1-150', async () => {
    for (const jurisdictionCode of ['US', 'USA-CA', 'US_CA', 'US-', 'US-ABCD', '', 'U1-CA']) {
      const res = await post('age-verify', { walletAddress: randomAddress(), jurisdictionCode });
      expect(res.statusCode, jurisdictionCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain('jurisdictionCode');
    }
    const both = await post('age-verify', { walletAddress: 'nope', minimumAge: 0 });
    expect(both.statusCode).toBe(400);
    expect(
      both
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['jurisdictionCode', 'minimumAge', 'walletAddress']);
    expect((await post('age-verify', { walletAddress: randomAddress(), jurisdictionCode: 'US-CA' }, {})).statusCode).toBe(401);
  });
});
