// Builds a supported chain's registry: the packages' sections in a fixed order, then the reviewed chain file
// (data/registry/<chainId>.json), then the trading allowlist. Each address is kept once: the first entry wins.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lc, newBuilder } from './builder.js';
import { DATA } from './data.js';
import { requirePackage as require } from './packages.js';
import { addAave } from './sections/aave.js';
import { addBalancer } from './sections/balancer.js';
import { addCompoundV2 } from './sections/compound-v2.js';
import { addEas } from './sections/eas.js';
import { addMorpho } from './sections/morpho.js';
import { addSpark } from './sections/spark.js';
import { addUniswapV4 } from './sections/uniswap-v4.js';
import { addUniswap } from './sections/uniswap.js';
import type { ChainRegistry, Role } from './types.js';

interface ChainFile {
  chainId: number;
  contracts: {
    address: string;
    protocol: string;
    role: Role;
    label: string;
    fromBlock: number;
    baseToken?: string;
    pool?: string;
    reserve?: string;
    source: string;
  }[];
  fromBlocks?: Record<string, { fromBlock: number; source: string } | string>;
  eas?: { trustedSchemas: { uid: string }[]; trustedAttesters: { address: string }[] };
}

export function build(chainId: number): ChainRegistry {
  const file = JSON.parse(readFileSync(path.join(DATA, `${chainId}.json`), 'utf8')) as ChainFile;
  const blocks = new Map(
    Object.entries(file.fromBlocks ?? {})
      .filter(([k]) => k.startsWith('0x'))
      .map(([k, v]) => [lc(k), typeof v === 'string' ? 0 : v.fromBlock]),
  );
  const b = newBuilder(chainId, blocks);
  const { add, addToken } = b;
  addAave(b);
  const { v2Factory, v3Factory } = addUniswap(b);
  addEas(b);
  addUniswapV4(b);
  addMorpho(b);
  addBalancer(b);
  addSpark(b);
  addCompoundV2(b);
  // The reviewed data file: what no package holds.
  for (const c of file.contracts) add(c);
  // The trading allowlist: the Uniswap default token list.
  const list = require('@uniswap/default-token-list') as {
    tokens: { chainId: number; address: string; symbol: string; decimals: number }[];
  };
  for (const t of list.tokens) if (t.chainId === chainId) addToken(t.address, t.symbol, t.decimals);

  return {
    contracts: b.contracts,
    tokens: b.tokens,
    v2Factory,
    v3Factory,
    trustedSchemas: new Set((file.eas?.trustedSchemas ?? []).map((s) => lc(s.uid))),
    trustedAttesters: new Set((file.eas?.trustedAttesters ?? []).map((s) => lc(s.address))),
  };
}
