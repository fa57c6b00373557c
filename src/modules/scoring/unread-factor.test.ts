// The UNREAD_PROTOCOL factor (service.ts withUnread): which categories carry it, what it replaces, and what it never
// pushes out (a signal that lowered the score).
import { describe, expect, it } from 'vitest';
import type { Category, Coverage, Factor, ScoreEntry } from './contracts.js';
import { withCoverage } from './service.js';

const kinds: Record<string, 'lending' | 'trading'> = { euler: 'lending', fluid: 'lending', curve: 'trading' };
const kindOf = (p: string) => kinds[p];
const coverage = (reason: string | null): Coverage => ({ status: 'partial', asOf: new Date(), reason, chains: [] });
const entry = (category: Category, factors: Factor[]): ScoreEntry => ({
  category,
  score: 500,
  conduct: 500,
  backingUsd: 10,
  confidence: 0.5,
  tier: 'Medium',
  calculatedAt: new Date(),
  modelVersion: '4.1.0',
  factors,
});
const f = (code: string, impact: number): Factor => ({ code, description: code, impact });
const codes = (e: ScoreEntry) => e.factors!.map((x) => x.code);

describe('the UNREAD_PROTOCOL factor', () => {
  it("replaces the category's 'none found' factor, naming only the protocols of its kind", () => {
    const e = withCoverage(entry('DEFI_LENDING', [f('NO_LENDING_HISTORY', 0)]), coverage('UNREAD_PROTOCOL:curve,euler,fluid'), kindOf);
    expect(codes(e)).toEqual(['UNREAD_PROTOCOL']);
    expect(e.factors![0].description).toMatch(
      /^none found on the lending protocols read, but tokens moved between this wallet and euler, fluid \(lending protocols not read\)/,
    );
    const t = withCoverage(entry('DEFI_TRADING', [f('SWAP_FEES', 40)]), coverage('UNREAD_PROTOCOL:curve,euler'), kindOf);
    expect(codes(t)).toEqual(['SWAP_FEES', 'UNREAD_PROTOCOL']);
    expect(t.factors![1].description).toMatch(/and curve \(trading protocol not read\)/);
  });

  it('leaves the other categories, other reasons and protocols of unknown kind alone', () => {
    const gov = entry('GOVERNANCE', [f('VOTES', 30)]);
    expect(withCoverage(gov, coverage('UNREAD_PROTOCOL:euler'), kindOf).factors).toEqual(gov.factors);
    const lending = entry('DEFI_LENDING', [f('NO_LENDING_HISTORY', 0)]);
    expect(withCoverage(lending, coverage(null), kindOf).factors).toEqual(lending.factors);
    expect(withCoverage(lending, coverage('UNREAD_PROTOCOL:curve'), kindOf).factors).toEqual(lending.factors);
    expect(withCoverage(lending, coverage('UNREAD_PROTOCOL:unknown'), kindOf).factors).toEqual(lending.factors);
  });

  it('with six factors already, the smallest one that did not lower the score gives way; in a category, one that lowered it never does', () => {
    const six = [f('A', 90), f('LIQUIDATIONS', -60), f('B', 30), f('C', 10), f('D', -5), f('E', 2)];
    const e = withCoverage(entry('DEFI_LENDING', six), coverage('UNREAD_PROTOCOL:euler'), kindOf);
    expect(codes(e)).toEqual(['A', 'LIQUIDATIONS', 'B', 'C', 'D', 'UNREAD_PROTOCOL']);
    const tail = [f('A', 90), f('B', 30), f('C', 10), f('D', 4), f('LIQUIDATIONS', -3), f('LATE', -1)];
    expect(codes(withCoverage(entry('DEFI_LENDING', tail), coverage('UNREAD_PROTOCOL:euler'), kindOf))).toEqual([
      'A',
      'B',
      'C',
      'LIQUIDATIONS',
      'LATE',
      'UNREAD_PROTOCOL',
    ]);
    // six signals that each lowered the score: all stay, and coverage's reason alone names the protocol
    const negative = ['L1', 'L2', 'L3', 'L4', 'L5', 'L6'].map((c, i) => f(c, -60 + i));
    const n = withCoverage(entry('DEFI_LENDING', negative), coverage('UNREAD_PROTOCOL:euler'), kindOf);
    expect(codes(n)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    expect(n.coverage!.reason).toBe('UNREAD_PROTOCOL:euler');
    // OVERALL's factors are its categories' pulls (the smallest one left out is still in its "other categories" line):
    // there the smallest gives way whatever its sign
    const pulls = ['LENDING', 'TRADING', 'GOVERNANCE', 'NFT', 'SOCIAL', 'DEVELOPER'].map((c, i) => f(`CATEGORY_${c}`, -40 + i));
    expect(codes(withCoverage(entry('OVERALL', pulls), coverage('UNREAD_PROTOCOL:curve,euler'), kindOf))).toEqual([
      ...pulls.slice(0, 5).map((p) => p.code),
      'UNREAD_PROTOCOL',
    ]);
  });
});
