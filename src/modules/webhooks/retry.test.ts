import { describe, expect, it } from 'vitest';
import { retryDelay } from './worker.js';
import { credenceSignature, generateSecret, standardSignature } from './signing.js';
import { Webhook } from 'standardwebhooks';

describe('retryDelay', () => {
  const schedule = [5, 300, 1800];
  it('follows the schedule with +-10 % jitter', () => {
    expect(retryDelay(schedule, 1, null, () => 0)).toBeCloseTo(4.5);
    expect(retryDelay(schedule, 1, null, () => 1)).toBeCloseTo(5.5);
    expect(retryDelay(schedule, 2, null, () => 0.5)).toBeCloseTo(300);
    expect(retryDelay(schedule, 3, null, () => 0.5)).toBeCloseTo(1800);
  });
  it('gives up past the end of the schedule', () => {
    expect(retryDelay(schedule, 4, null)).toBeNull();
    expect(retryDelay([], 1, 10)).toBeNull();
  });
  it('waits at least as long as Retry-After asks, capped at a day', () => {
    expect(retryDelay(schedule, 1, 120, () => 0.5)).toBe(120);
    expect(retryDelay(schedule, 2, 10, () => 0.5)).toBeCloseTo(300);
    expect(retryDelay(schedule, 1, 10_000_000, () => 0.5)).toBe(86_400);
  });
});

describe('signatures', () => {
  it('match the Standard Webhooks reference implementation', () => {
    const secret = generateSecret();
    const when = new Date('2026-11-23T10:00:00Z');
    const body = '{"event":"score.updated"}';
    expect(standardSignature(secret, 'msg_1', Math.floor(when.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_1', when, body));
    // known-answer value from `printf abc | openssl dgst -sha256 -hmac k`
    expect(credenceSignature('k', 'abc')).toBe('sha256=342e519ce0ad6c03a36b98eeb3f1d130db4813b9df4d1160eda488d712dc78ee');
  });
});
