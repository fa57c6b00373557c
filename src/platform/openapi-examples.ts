// Examples for the OpenAPI document: a media-type example for every request and response, built from the
// schema's own examples, defaults, enums and formats (so a route added tomorrow gets one too), and per-status
// error examples that name the code a client really receives on that status.
import { STATUS_OF, type ErrorCode } from './errors.js';

type Json = Record<string, unknown>;

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '1990-04-01',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'eth-address': '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  'eth-address-or-ens': '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  uri: 'https://app.example.com/credence',
  url: 'https://app.example.com/credence',
  email: 'ops@example.com',
  hostname: 'app.example.com',
  ipv4: '192.0.2.10',
};

/** A string matching a simple pattern (classes, escapes, groups with alternatives, quantifiers); undefined if too hard. */
export function fromPattern(pattern: string): string | undefined {
  let i = 0;
  const src = pattern;
  function atom(): string | undefined {
    const c = src[i++];
    if (c === '[') {
      const end = src.indexOf(']', i + 1);
      const body = src.slice(i, end);
      i = end + 1;
      if (body.startsWith('^')) return body.includes('x') ? 'y' : 'x';
      if (/a-z/.test(body)) return 'a';
      if (/A-Z/.test(body)) return 'A';
      if (/0-9/.test(body)) return '1';
      return body[0] === '\\' ? body[1] : body[0];
    }
    if (c === '\\') {
      const e = src[i++];
      return ({ d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' } as Record<string, string>)[e] ?? e;
    }
    if (c === '(') {
      if (src.startsWith('?:', i)) i += 2;
      const alternatives: string[] = [];
      let current = '';
      for (;;) {
        if (i >= src.length) return undefined;
        if (src[i] === ')') {
          i++;
          break;
        }
        if (src[i] === '|') {
          alternatives.push(current);
          current = '';
          i++;
          continue;
        }
        const piece = quantified();
        if (piece === undefined) return undefined;
        current += piece;
      }
      alternatives.push(current);
      return alternatives[0];
    }
    if (c === '.') return 'a';
    return c;
  }
  function quantified(): string | undefined {
    const a = atom();
    if (a === undefined) return undefined;
    const q = /^(\{(\d+)(,(\d*))?\}|[+*?])\??/.exec(src.slice(i));
    if (!q) return a;
    i += q[0].length;
    const n = q[2] !== undefined ? Number(q[2]) : q[1] === '+' ? 1 : 0;
    return a.repeat(n);
  }
  let out = '';
  if (src[0] === '^') i = 1;
  while (i < src.length) {
    if (src[i] === '$' && i === src.length - 1) break;
    if (src[i] === '|') break;
    const piece = quantified();
    if (piece === undefined) return undefined;
    out += piece;
  }
  try {
    return new RegExp(pattern).test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

function sampleNumber(s: Json, integer: boolean): number {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : undefined;
  if (min !== undefined && max !== undefined) return integer ? Math.floor((min + max) / 2) : (min + max) / 2;
  if (min !== undefined) return min;
  if (max !== undefined) return Math.min(max, integer ? 1 : 0.5);
  return integer ? 1 : 0.5;
}

/** A value that satisfies `schema` (components resolved through `resolveRef`). */
export function sampleOf(schema: unknown, resolveRef: (ref: string) => unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return sampleOf(resolveRef(s.$ref), resolveRef, depth + 1);
  if ('example' in s) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? null;
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((p) => sampleOf(p, resolveRef, depth + 1));
    if (parts.every((p) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
    return parts[0];
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) {
      const first = (s[k] as Json[]).find(
        (p) => p.type !== 'null' && !(Array.isArray(p.enum) && p.enum.length === 1 && p.enum[0] === null),
      );
      return sampleOf(first ?? (s[k] as unknown[])[0], resolveRef, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out: Json = {};
    for (const [k, v] of Object.entries((s.properties as Json) ?? {})) out[k] = sampleOf(v, resolveRef, depth + 1);
    return out;
  }
  if (type === 'array') {
    const item = sampleOf(s.items, resolveRef, depth + 1);
    return Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () => item);
  }
  if (type === 'integer' || type === 'number') return sampleNumber(s, type === 'integer');
  if (type === 'boolean') return true;
  if (type === 'string') {
    if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format];
    if (typeof s.pattern === 'string') {
      if (s.pattern === '^0x[0-9a-fA-F]{64}$') return '0x9c1e8a3f0b2d4c6e8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f';
      const p = fromPattern(s.pattern);
      if (p !== undefined) return p;
    }
    const min = Number(s.minLength ?? 0);
    const base = 'example';
    return min > base.length ? base.padEnd(min, 'x') : base;
  }
  return null;
}

const DETAILS: Partial<Record<ErrorCode, string>> = {
  validation_failed: 'Invalid request: address must be an Ethereum address: 0x followed by 40 hex characters.',
  unauthorized: 'The API key is not valid.',
  forbidden: 'This operation is for administrators only.',
  not_found: 'No record with this id.',
  invalid_state: 'A Resolved dispute cannot move to Under Review.',
  payload_too_large: 'The request body is too large.',
  uri_too_long: 'The request URL is too long (5,032 characters); a path parameter may have at most 1,000.',
  unsupported_media_type: 'The request body must be JSON (Content-Type: application/json).',
  proof_unsatisfiable: 'The statement is false: the score is below the threshold.',
  rate_limited: 'Rate limit of 10 requests per second exceeded for this API key; retry in 1 s.',
  quota_exceeded: 'Monthly query quota of 100 exhausted (100 used, this call needs 1); it resets at 00:00 UTC on the first of next month.',
  upstream_unavailable: 'The chain RPC provider did not answer.',
  unavailable: 'No sanctions list is loaded yet.',
  internal: 'An internal error occurred (request 4fQ2kA-1x).',
};

/** The error codes a status can carry, from the one map in errors.ts. */
export const codesFor = (status: number): ErrorCode[] => (Object.keys(STATUS_OF) as ErrorCode[]).filter((c) => STATUS_OF[c] === status);

/** Media-type `examples` for an error status: one named example per code that status can carry. */
export function errorExamples(status: number): Record<string, { summary: string; value: Json }> | undefined {
  const out: Record<string, { summary: string; value: Json }> = {};
  for (const code of codesFor(status)) {
    const value: Json = { error: code, details: DETAILS[code] ?? code };
    if (code === 'validation_failed')
      value.fields = [{ field: 'address', message: 'must be an Ethereum address: 0x followed by 40 hex characters' }];
    out[code] = { summary: code, value };
  }
  return Object.keys(out).length ? out : undefined;
}
