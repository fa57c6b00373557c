// Migration 0032 names the position managers in SQL (a migration cannot import the package): they must be the
// registry's, i.e. @uniswap/sdk-core's, on every registry chain.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NONFUNGIBLE_POSITION_MANAGER_ADDRESSES } from '@uniswap/sdk-core';
import { REGISTRY_CHAINS, isPositionManager } from './registry/index.js';

const MIGRATION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations/0032_v3_positions.sql');

describe('position managers in migration 0032', () => {
  it('are the package addresses the registry pins, chain by chain', () => {
    const sql = readFileSync(MIGRATION, 'utf8');
    const listed = Object.fromEntries([...sql.matchAll(/\((\d+), '(0x[0-9a-f]*)'\)/g)].map((m) => [Number(m[1]), m[2]]));
    expect(
      Object.keys(listed)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...REGISTRY_CHAINS].sort((a, b) => a - b));
    for (const chainId of REGISTRY_CHAINS) {
      expect(listed[chainId], String(chainId)).toBe(NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[chainId].toLowerCase());
      expect(isPositionManager(chainId, listed[chainId])).toBe(true);
    }
  });
});
