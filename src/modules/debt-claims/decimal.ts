// Exact decimals for claim amounts: read from the raw JSON text (never through a binary float), stored as
// NUMERIC, and written back as JSON numbers carrying exactly the stored digits.
import { randomBytes } from 'node:crypto';

const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

export const AMOUNT_MIN = '0.000001';
export const AMOUNT_MAX_INTEGER_DIGITS = 30;
export const AMOUNT_MAX_FRACTION_DIGITS = 18;

/**
 * A JSON-number-shaped text (exponent allowed) as a plain decimal string, keeping the digits given
 * (1.50 stays 1.50, 1.5e3 becomes 1500). Null when the text is not a number or its exponent is absurd.
 */
export function plainDecimal(text: string): string | null {
  const m = JSON_NUMBER.exec(text.trim());
  if (!m) return null;
  const [, sign, int, frac = '', expText] = m;
  const exp = expText === undefined ? 0 : Number(expText);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100) return null;
  let digits = int + frac;
  let point = int.length + exp;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits += '0'.repeat(point - digits.length);
  }
  let intPart = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fracPart = digits.slice(point);
  if (intPart === '') intPart = '0';
  return sign + intPart + (fracPart ? `.${fracPart}` : '');
}

/** Why an amount is unacceptable, or null when it is fine. Accepts a JSON number's text or a numeric string. */
export function amountProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a decimal number';
  const d = plainDecimal(value);
  if (d === null) return 'must be a decimal number, as a JSON number (12.5) or a numeric string ("12.5")';
  if (d.startsWith('-')) return `must be at least ${AMOUNT_MIN}`;
  const [int, frac = ''] = d.split('.');
  if (int.length > AMOUNT_MAX_INTEGER_DIGITS) return `must have at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the decimal point`;
  if (frac.length > AMOUNT_MAX_FRACTION_DIGITS) return `must have at most ${AMOUNT_MAX_FRACTION_DIGITS} decimal places`;
  // >= 0.000001 exactly: some non-zero digit in the integer part or in the first six decimals.
  if (!/[1-9]/.test(int) && !/[1-9]/.test(frac.slice(0, 6))) return `must be at least ${AMOUNT_MIN}`;
  return null;
}

/** Parses a JSON body; numbers under the given top-level keys come back as their exact source text. */
export function parseJsonKeepingDecimals(text: string, keys: readonly string[]): unknown {
  // Dropping __proto__ keys (as Fastify's own parser does) costs a reviver call per value: only when present.
  const value = text.includes('__proto__') ? JSON.parse(text, (k, v) => (k === '__proto__' ? undefined : v)) : JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  if (!keys.some((k) => typeof obj[k] === 'number')) return obj;
  for (const [k, raw] of topLevelRawValues(text)) {
    if (keys.includes(k) && typeof obj[k] === 'number') obj[k] = raw;
  }
  return obj;
}

/** Raw source text of each top-level member of a valid JSON object (the last occurrence wins, as in JSON.parse). */
function topLevelRawValues(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = ws(text, 0) + 1; // past '{'
  for (;;) {
    i = ws(text, i);
    if (text[i] === '}') return out;
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = ws(text, keyEnd) + 1; // past ':'
    i = ws(text, i);
    const start = i;
    i = valueEnd(text, i);
    out.set(key, text.slice(start, i));
    i = ws(text, i);
    if (text[i] === ',') i++;
    else return out;
  }
}

function ws(t: string, i: number) {
  while (i < t.length && (t[i] === ' ' || t[i] === '\n' || t[i] === '\r' || t[i] === '\t')) i++;
  return i;
}

function stringEnd(t: string, i: number) {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '"') return j + 1;
  }
  return t.length;
}

function valueEnd(t: string, i: number) {
  const c = t[i];
  if (c === '"') return stringEnd(t, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t[j];
      if (d === '"') j = stringEnd(t, j) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return t.length;
  }
  let j = i;
  while (j < t.length && !',}] \n\r\t'.includes(t[j])) j++;
  return j;
}

/** A NUMERIC value from the database, serialized as a bare JSON number with exactly its digits. */
export class ExactDecimal {
  constructor(readonly text: string) {}
  toJSON() {
    return `${MARK}${this.text}${MARK_END}`;
  }
  toString() {
    return this.text;
  }
}

// Per-process random markers, so no client-supplied string can be mistaken for a decimal placeholder.
const MARK = `\u0001dec${randomBytes(6).toString('hex')}:`;
const MARK_END = '\u0001';
const MARK_RE = new RegExp(
  `"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(-?\\d+(?:\\.\\d+)?)${JSON.stringify(MARK_END).slice(1, -1).replace(/\\/g, '\\\\')}"`,
  'g',
);

/** JSON.stringify that writes ExactDecimal values as JSON numbers. */
export function stringifyExact(value: unknown): string {
  return JSON.stringify(value).replace(MARK_RE, '$1');
}
