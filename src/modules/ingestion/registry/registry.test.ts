// The registry's facts themselves: every contract a chain's JSON-RPC plan reads carries its deployment block (a
// first sync never asks from block 0 where a source gives the block), and every address and block names its source.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../log-plan.js';
import { contractInfo, pinnedContracts, REGISTRY_CHAINS } from './index.js';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../data/registry');
type ChainFile = {
  contracts: { address: string; fromBlock: number; source: string }[];
  fromBlocks: Record<string, { fromBlock: number; source: string } | string>;
};
const file = (chainId: number) => JSON.parse(readFileSync(path.join(DATA, `${chainId}.json`), 'utf8')) as ChainFile;

// Read from block 0 for want of a checked source: the DAOs' own contracts on OP Mainnet and Arbitrum, where the
// Uniswap V3 factory (blocks 27,446 and 175) starts the plan near genesis anyway. This list may only shrink.
const STILL_ZERO: Record<number, string[]> = {
  10: ['0xcdf27f107725988f2261ce2256bdfcde8b382b10', '0x4200000000000000000000000000000000000042'],
  42161: [
    '0xf07ded9dc292157749b6fd268e37df6ea38395b9',
    '0x789fc99093b09ad01c34dc7251d0c89ce743e5a4',
    '0x912ce59144191c1204e64559fe8253a0e49e6548',
  ],
};

describe('deployment blocks', () => {
  it('every contract a plan asks for has its block on every chain, but for the listed DAO contracts', () => {
    for (const chainId of REGISTRY_CHAINS) {
      const plan = buildPlan(pinnedContracts(chainId));
      // (the token transfer scan, address null, starts where the first of them does)
      const zero = [...new Set(plan.streams.filter((s) => s.fromBlock === 0 && s.address).map((s) => s.address))].sort();
      expect(zero, String(chainId)).toEqual([...(STILL_ZERO[chainId] ?? [])].sort());
    }
  });

  it('a first sync starts where the first contract the chain reads was deployed', () => {
    const start = (chainId: number) => buildPlan(pinnedContracts(chainId)).start;
    expect(start(1)).toBe(7_710_671); // Compound V2's Comptroller
    expect(start(137)).toBe(12_687_211); // Aave V2 Polygon (its subgraph's registry start)
    expect(start(8453)).toBe(1_196_036); // Balancer V2's Vault
    // OP Mainnet and Arbitrum: 0 while their DAO contracts have no block, 3 and 1 windows of 10,000 blocks before
    // the Uniswap V3 factory (27,446 and 175)
    expect(start(10)).toBe(0);
    expect(start(42161)).toBe(0);
    const withoutDao = (chainId: number) =>
      buildPlan(pinnedContracts(chainId).filter((c) => !STILL_ZERO[chainId].includes(c.address))).start;
    expect(withoutDao(10)).toBe(27_446);
    expect(withoutDao(42161)).toBe(175);
  });

  it('the L2 blocks reach the package contracts: Aave pools and their aTokens, factories, EAS predeploys, Comets', () => {
    const at = (chainId: number, a: string) => contractInfo(chainId, a)?.fromBlock;
    expect(at(10, '0x794a61358D6845594F94dc1DB02A252b5b4814aD')).toBe(4_364_782);
    expect(at(137, '0x8dFf5E27EA6b7AC08EbFdf9eB090F32ee9a30fcf')).toBe(12_687_211);
    expect(at(8453, '0x4200000000000000000000000000000000000021')).toBe(3_701_279);
    expect(at(8453, '0x33128a8fC17869897dcE68Ed026d694621f6FDfD')).toBe(2_009_445);
    for (const chainId of [10, 137, 8453, 42161]) {
      const all = pinnedContracts(chainId).map((c) => contractInfo(chainId, c.address)!);
      for (const t of all.filter((c) => c.role === 'a-token'))
        expect(t.fromBlock, `${chainId} ${t.label}`).toBe(contractInfo(chainId, t.pool!)!.fromBlock);
      for (const c of all.filter((x) => x.role === 'comet' || x.role === 'dex-factory' || x.role === 'eas'))
        expect(c.fromBlock, `${chainId} ${c.label}`).toBeGreaterThan(0);
    }
  });

  it('every block and address in the chain files names its source', () => {
    for (const chainId of REGISTRY_CHAINS) {
      const f = file(chainId);
      for (const c of f.contracts) expect(c.source.length, `${chainId} ${c.address}`).toBeGreaterThan(20);
      for (const [k, v] of Object.entries(f.fromBlocks ?? {})) {
        if (!k.startsWith('0x')) continue;
        expect(typeof v === 'object' && v.fromBlock > 0 && v.source.length > 20, `${chainId} ${k}`).toBe(true);
        // a block for an address the registry does not pin would be a typo in the key
        expect(contractInfo(chainId, k), `${chainId} ${k}`).toBeDefined();
      }
    }
  });
});
