// IDENTITY credit for a DID only once its wallet proved control: registration is public, so anyone can
// register a victim's (or any) wallet's DID. The attack through HTTP: register someone else's DID -> no credit;
// that wallet signs in with SIWE (or updates its DID document with its JWT) -> credit.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, signIn, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let key: TestKey;
beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Growth');
});
afterAll(async () => {
  await app?.close();
});

const identity = async (address: string) => {
  const res = await app.inject({ url: `/api/v1/reputation/${address}/IDENTITY?explain=true`, headers: key.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { score: number; factors?: { code: string }[] };
};
const register = (walletAddress: string) => app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress } });

describe('DID credit needs proved control of the wallet', () => {
  it("registering another wallet's DID gives nothing; that wallet's SIWE sign-in gives the credit", async () => {
    const victim = Wallet.createRandom();
    const before = await identity(victim.address);
    // anyone may register it (no credentials)
    expect((await register(victim.address)).statusCode).toBe(201);
    const registered = await eventually(
      async () => {
        const e = await identity(victim.address);
        return e.factors?.some((f) => f.code === 'DID_CONTROL_UNPROVEN') ? e : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(registered.score).toBe(before.score);
    expect(registered.factors!.map((f) => f.code)).not.toContain('DID_REGISTERED');

    await signIn(app, victim);
    const proved = await eventually(
      async () => {
        const e = await identity(victim.address);
        return e.factors?.some((f) => f.code === 'DID_REGISTERED') ? e : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(proved.score).toBeGreaterThan(before.score);
  });

  it('a JWT-authenticated DID document update is proof as well, and a wallet that signed in earlier gets credit on registration', async () => {
    const early = Wallet.createRandom();
    await signIn(app, early);
    expect((await register(early.address)).statusCode).toBe(201);
    await eventually(async () => (await identity(early.address)).factors?.some((f) => f.code === 'DID_REGISTERED'), { timeoutMs: 30_000 });

    // the proof recorded by the update path itself (a JWT minted without a sign-in through this instance)
    const owner = Wallet.createRandom();
    const reg = await register(owner.address);
    expect(reg.statusCode).toBe(201);
    const did = reg.json().did as string;
    const { token } = await app.ctx.jwt.issue(owner.address, ['user']);
    const doc = JSON.parse((await app.inject({ url: `/api/v1/identity/${did}`, headers: key.headers })).json().didDocument);
    const put = await app.inject({
      method: 'PUT',
      url: `/api/v1/identity/${did}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { didDocument: JSON.stringify(doc) },
    });
    expect(put.statusCode).toBe(204);
    const [row] = await app.ctx.db.query<{ method: string }>('SELECT method FROM wallet_control_proofs WHERE address = $1', [
      owner.address.toLowerCase(),
    ]);
    expect(row.method).toBe('did_update');
    await eventually(async () => (await identity(owner.address)).factors?.some((f) => f.code === 'DID_REGISTERED'), { timeoutMs: 30_000 });
  });
});
