// The model's output on a fixed population is byte-identical to the stored one: a speed change must not move any
// score, factor, description or key. After a deliberate scoring change, regenerate the fixture with
// CREDENCE_UPDATE_GOLDEN=1 and review the samples' diff.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replayLending } from './lending-positions.js';
import { populationWallet } from './population.js';
import { model } from '../params.js';

const { scoreWallet } = model;

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../test/fixtures/model-golden.json');
const WALLETS = 3000;
const SAMPLES = [1, 42, 1234, 2999];

interface Golden {
  wallets: number;
  digest: string;
  hashes: string[];
  samples: Record<string, unknown>;
}

function outputOf(i: number) {
  const w = populationWallet(i);
  // the replay on its own (every field, not only what the scores use), then the nine results
  return { replay: replayLending(w.events), scores: scoreWallet(w) };
}

describe('model golden output', () => {
  it(`scores every wallet of a ${WALLETS}-wallet seeded population exactly as stored`, () => {
    const hashes: string[] = [];
    const all = createHash('sha256');
    const samples: Record<string, unknown> = {};
    for (let i = 0; i < WALLETS; i++) {
      const out = outputOf(i);
      const json = JSON.stringify(out);
      all.update(json);
      hashes.push(createHash('sha256').update(json).digest('hex').slice(0, 12));
      if (SAMPLES.includes(i)) samples[i] = JSON.parse(json);
    }
    const got: Golden = { wallets: WALLETS, digest: all.digest('hex'), hashes, samples };
    if (process.env.CREDENCE_UPDATE_GOLDEN === '1') writeFileSync(FILE, JSON.stringify(got, null, 1) + '\n');
    const want = JSON.parse(readFileSync(FILE, 'utf8')) as Golden;
    // the samples first: a mismatch there shows the field that moved
    for (const i of SAMPLES) expect(got.samples[i], `wallet ${i}`).toEqual(want.samples[i]);
    const differ = hashes.flatMap((h, i) => (h === want.hashes[i] ? [] : [i]));
    expect(differ, 'wallets whose output changed (populationWallet(i))').toEqual([]);
    expect(got.digest).toBe(want.digest);
  });
});
