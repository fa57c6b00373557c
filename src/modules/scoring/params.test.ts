// The model's parameters live in data/scoring/, are read once and checked, and the model never reads a file itself.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createModel, emptyFeatures } from './model/index.js';
import { loadModelParams, MODEL_PARAMS, model, parseModelParams } from './params.js';

const MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');

describe('model parameters', () => {
  it('are data: model.json, the ceiling of costs.json and backing.json, checked against their shape', () => {
    expect(MODEL_PARAMS.weights.DEFI_LENDING).toBe(0.22);
    expect(Object.values(MODEL_PARAMS.weights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(MODEL_PARAMS.ceiling.usdAt600).toBe(1000);
    expect(MODEL_PARAMS.backing.parkedYieldApr).toBe(0.036);
    expect(model.params).toBe(MODEL_PARAMS);
  });

  it('a missing or mistyped field stops the load naming it', () => {
    const broken = structuredClone(loadModelParams()) as unknown as { lending: { repaid: Record<string, unknown> } };
    delete broken.lending.repaid.k;
    expect(() => parseModelParams(broken)).toThrow(/\/lending\/repaid\/k/);
    const typo = structuredClone(loadModelParams()) as unknown as { weights: Record<string, unknown> };
    typo.weights.NFT = '0.06';
    expect(() => parseModelParams(typo)).toThrow(/\/weights\/NFT/);
  });

  it('are what the model scores with: a changed point value moves the score, the shipped model does not', () => {
    const f = emptyFeatures('0x00000000000000000000000000000000000000aa');
    f.activeMonths = 12;
    f.distinctCounterparties = 30;
    const shipped = model.scoreWallet({ features: f });
    const params = structuredClone(MODEL_PARAMS);
    params.social.counterparties.points = 0;
    const changed = createModel(params).scoreWallet({ features: f });
    const social = (r: typeof shipped) => r.find((x) => x.category === 'SOCIAL')!.conduct;
    expect(social(changed)).toBeLessThan(social(shipped));
    expect(model.scoreWallet({ features: f })).toEqual(shipped);
  });

  it('the pure model imports no file or network module', () => {
    const sources = (readdirSync(MODEL_DIR, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources).toContain(path.join('categories', 'lending.ts'));
    for (const f of sources) {
      const text = readFileSync(path.join(MODEL_DIR, f), 'utf8');
      expect(text, f).not.toMatch(/from 'node:(fs|http|https|net)'|readFileSync|fetch\(/);
    }
  });
});
