// Every Compound V3 market on our chains is pinned (compound-finance/comet deployments @d5a30b0, each address and
// base token in data/registry/<chain>.json with its roots.json), so a borrower on one of the markets added later
// (OP Mainnet's USDC and USDT, Arbitrum's USDC.e, Base's AERO and USDS, Ethereum's USDS, WBTC and wstETH) is read
// like one on the first: here through the ethereum-etl import of OP Mainnet at the real cUSDCv3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlExport } from '../../../../test/helpers/etl-export.js';
import { randomAddress } from '../../../../test/helpers/app.js';
import { testDatabase } from '../../../../test/helpers/db.js';
import { lendingRows } from '../../../../test/helpers/lending-rows.js';
import type { Db } from '../../../platform/db/types.js';
import { importEthereumEtl } from '../etl/import.js';
import { createIngestionRepo } from '../repo.js';
import { contractInfo, pinnedContracts } from './index.js';

const OP_CUSDCV3 = '0x2e44e174f7d53f0212823acc11c01a11d58c5bcb'; // comet deployments/optimism/usdc/roots.json
const OP_USDC = '0x0b2c639c533813f4aa9d7837caf62653d097ff85'; // its configuration.json baseTokenAddress
const SIG = {
  supply: 'event Supply(address indexed from, address indexed dst, uint256 amount)',
  withdraw: 'event Withdraw(address indexed src, address indexed to, uint256 amount)',
};

describe('the Compound V3 markets', () => {
  it('every market of compound-finance/comet on our chains is pinned, with its base token and a block', () => {
    const comets = (chainId: number) => pinnedContracts(chainId).filter((c) => c.role === 'comet');
    expect([1, 10, 137, 8453, 42161].map((id) => comets(id).length)).toEqual([6, 3, 2, 5, 4]);
    for (const id of [1, 10, 137, 8453, 42161])
      for (const c of comets(id)) {
        const info = contractInfo(id, c.address)!;
        expect(info.baseToken, `${id} ${info.label}`).toMatch(/^0x[0-9a-f]{40}$/);
        expect(info.fromBlock, `${id} ${info.label}`).toBeGreaterThan(0);
      }
    expect(contractInfo(10, OP_CUSDCV3)).toMatchObject({ protocol: 'compound-v3', baseToken: OP_USDC, fromBlock: 118_406_281 });
  });

  describe('OP Mainnet cUSDCv3 through the ethereum-etl import', () => {
    const wallet = randomAddress();
    let db: Db;
    beforeAll(async () => {
      db = await testDatabase();
      const x = new EtlExport(120_000_000);
      const at = (d: number) => new Date(Date.UTC(2025, 2, 1 + d));
      x.tx({
        from: wallet,
        to: OP_CUSDCV3,
        at: at(0),
        logs: [{ address: OP_CUSDCV3, event: SIG.supply, args: { from: wallet, dst: wallet, amount: 5_000_000_000n } }],
      });
      // the same wallet borrows $2,000 of base (a Withdraw past its balance is a borrow: decode.ts)
      x.tx({
        from: wallet,
        to: OP_CUSDCV3,
        at: at(10),
        logs: [{ address: OP_CUSDCV3, event: SIG.withdraw, args: { src: wallet, to: wallet, amount: 7_000_000_000n } }],
      });
      await importEthereumEtl({ db, repo: createIngestionRepo(db) }, x.write('credence-etl-op-comet-'), { chainId: 10 });
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('its Supply and Withdraw are lending rows of the market, valued in USDC', async () => {
      const rows = (await lendingRows(db, wallet)).map((r) => [r.kind, r.protocol, r.contract, Number(r.value_usd)]);
      expect(rows[0]).toEqual(['lending_supply', 'compound-v3', OP_CUSDCV3, 5_000]);
      expect(rows.slice(1).every((r) => r[1] === 'compound-v3' && r[2] === OP_CUSDCV3)).toBe(true);
      expect(rows.slice(1).reduce((n, r) => n + (r[3] as number), 0)).toBe(7_000);
    });
  });
});
