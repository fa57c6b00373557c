// The issuer's own DID is registered while the app is assembled. Its wallet is rescored once the app is ready only
// if it was scored before (a new issuer key over a database that already scored that wallet): a wallet never scored,
// the issuer's on a new database, gets the DID in its first score and costs nothing at start.
import { Wallet } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers/app.js';
import { keepOpen, testDatabase } from '../../../test/helpers/db.js';

const db = keepOpen(await testDatabase());
// one deployment: the same secrets at every start
const secrets: Record<string, string> = {};
afterAll(() => db.reallyClose());

const didFactors = async (address: string) => {
  const rows = await db.query<{ factors: { code: string }[] }>(`SELECT factors FROM scores WHERE address = $1 AND category = 'IDENTITY'`, [
    address.toLowerCase(),
  ]);
  return rows.length === 0 ? null : rows[0].factors.map((f) => f.code).filter((c) => c.startsWith('DID_'));
};

describe('the issuer DID at start', () => {
  const first = Wallet.createRandom();
  const second = Wallet.createRandom();

  it('a never-scored issuer wallet is not scored at start; its first read has the DID', async () => {
    const app = await createTestApp({ db, secrets, config: { issuerKey: first.privateKey } });
    await app.close(); // waits for the background rescores a start begins
    expect(await didFactors(first.address)).toBeNull();

    const again = await createTestApp({ db, secrets, config: { issuerKey: first.privateKey } });
    try {
      await again.ctx.services.scoring.getScores(first.address); // a first read
      expect(await didFactors(first.address)).not.toEqual([]);
      // the second wallet is scored before it has a DID
      await again.ctx.services.scoring.getScores(second.address);
      expect(await didFactors(second.address)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('a new issuer key whose wallet was scored before rescores it once the app is ready', async () => {
    // a deliberate key change, as the README says: every instance stopped, the key's check deleted
    await db.query(`DELETE FROM instance_key_checks WHERE setting = 'CREDENCE_ISSUER_KEY'`);
    const app = await createTestApp({ db, secrets, config: { issuerKey: second.privateKey } });
    await app.close();
    expect(await didFactors(second.address)).not.toEqual([]);
  });
});
