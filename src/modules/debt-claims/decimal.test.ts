import { describe, expect, it } from 'vitest';
import { ExactDecimal, amountProblem, parseJsonKeepingDecimals, plainDecimal, stringifyExact } from './decimal.js';

describe('exact decimals', () => {
  it('turns JSON number text into plain decimals without losing digits', () => {
    expect(plainDecimal('12345678901234567890.123456')).toBe('12345678901234567890.123456');
    expect(plainDecimal('1.50')).toBe('1.50');
    expect(plainDecimal('1e-6')).toBe('0.000001');
    expect(plainDecimal('15E-7')).toBe('0.0000015');
    expect(plainDecimal('2.5e3')).toBe('2500');
    expect(plainDecimal('123.456e-2')).toBe('1.23456');
    expect(plainDecimal('-0.5')).toBe('-0.5');
    for (const bad of ['', 'abc', '01', '1.', '.5', '+1', '1e999', '0x10', 'NaN']) expect(plainDecimal(bad), bad).toBeNull();
  });

  it('checks the amount rule exactly at the boundary', () => {
    expect(amountProblem('0.000001')).toBeNull();
    expect(amountProblem('0.0000010')).toBeNull();
    expect(amountProblem('0.0000009999999999')).toBe('must be at least 0.000001');
    expect(amountProblem('0')).toBe('must be at least 0.000001');
    expect(amountProblem('-3')).toBe('must be at least 0.000001');
    expect(amountProblem('1'.repeat(31))).toMatch(/at most 30 digits/);
    expect(amountProblem('1.1234567890123456789')).toMatch(/at most 18 decimal places/);
    expect(amountProblem(5)).toBe('must be a decimal number');
  });

  it('keeps the raw text of top-level numbers only, last duplicate wins, drops __proto__', () => {
    const text =
      '{"nested":{"amount":1.1},"amount":1,"s":"\\"amount\\":2","amount" : 98765432109876543210.5 ,"__proto__":{"x":1},"list":[{"a":"]"}]}';
    const v = parseJsonKeepingDecimals(text, ['amount']) as Record<string, unknown>;
    expect(v.amount).toBe('98765432109876543210.5');
    expect(v.nested).toEqual({ amount: 1.1 });
    expect(Object.prototype.hasOwnProperty.call(v, '__proto__')).toBe(false);
    expect(parseJsonKeepingDecimals('{"amount":"7.25"}', ['amount'])).toEqual({ amount: '7.25' });
    expect(() => parseJsonKeepingDecimals('{"amount":', ['amount'])).toThrow(SyntaxError);
  });

  it('writes ExactDecimal values as bare JSON numbers, and nothing else', () => {
    const s = stringifyExact({
      a: new ExactDecimal('12345678901234567890.123456'),
      b: [new ExactDecimal('-1.50')],
      c: 'x"y',
      d: new Date(0),
    });
    expect(s).toBe('{"a":12345678901234567890.123456,"b":[-1.50],"c":"x\\"y","d":"1970-01-01T00:00:00.000Z"}');
  });
});
