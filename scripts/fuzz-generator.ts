// What the fuzzer (fuzz.ts) sends: a seeded generator of values from the OpenAPI document's schemas (valid ones,
// and mutations of them), the hostile strings, values and path segments it mixes in, and the encoding of the lone
// surrogates encodeURIComponent refuses.
import { seeded } from '../src/platform/seeded-random.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** mulberry32 (seeded-random.ts) with the draws the fuzzer makes. */
export function rng(seed: number) {
  const next = seeded(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

export const HOSTILE_STRINGS = [
  '',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00y',
  '\ud83d',
  'x'.repeat(10_000),
  'é🙂\u202e',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%ZZ',
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '0x',
  '0xZZ',
  'did:credence:',
  '-1',
  '1e400',
  'NaN',
  'null',
];
export const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 64,
  Number.MAX_SAFE_INTEGER + 2,
  '12345678901234567890123456789',
  [],
  {},
  [1, 'a', null],
  { a: { b: { c: {} } } },
];
export const HOSTILE_SEGMENTS = [
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '..%2F..%2Fetc',
  '%2e%2e',
  'x'.repeat(1200),
  '%F0%9F%99%82',
  ' ',
  '%20',
  'null',
  '-1',
  '0',
  '99999999999999999999999',
];

/** encodeURIComponent, except that lone surrogates (which it refuses) go out as the invalid UTF-8 they would be. */
export function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return v
      .split('')
      .map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)))
      .join('');
  }
}

export function resolver(doc: Json) {
  const deref = (s: Json | undefined): Json => {
    let cur = s ?? {};
    for (let i = 0; i < 10 && cur.$ref; i++)
      cur =
        cur.$ref
          .split('/')
          .slice(1)
          .reduce((o: Json, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc) ?? {};
    return cur;
  };
  return deref;
}

export function generator(deref: (s: Json | undefined) => Json, r: Rng) {
  const counter = { n: 0 };
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
  function str(s: Json): string {
    if (s.enum) return r.pick(s.enum);
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.examples) && s.examples.length && r.chance(0.6)) return String(r.pick(s.examples));
    if (s.example !== undefined && r.chance(0.6)) return String(s.example);
    switch (s.format) {
      case 'eth-address':
        return `0x${hex(40)}`;
      case 'uuid':
        return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
      case 'date-time':
        return new Date(Date.UTC(2020, 0, 1) + r.int(0, 2e9) * 1000).toISOString();
      case 'date':
        return '1990-01-01';
      case 'uri':
        return `http://127.0.0.1:9/${hex(6)}`;
      case 'email':
        return 'fuzz@example.com';
    }
    if (s.pattern?.startsWith('^0x[0-9a-fA-F]{64}')) return `0x${hex(64)}`;
    if (s.pattern?.startsWith('^0x')) return `0x${hex(40)}`;
    const min = s.minLength ?? 0;
    const max = Math.min(s.maxLength ?? 24, 64);
    const len = r.int(min, Math.max(min, max));
    counter.n++;
    return Array.from({ length: len }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[r.int(0, 35)]).join('');
  }
  function gen(schema: Json | undefined, depth = 0): unknown {
    const s = deref(schema);
    if (depth > 6) return null;
    if (s.anyOf || s.oneOf) return gen(r.pick((s.anyOf ?? s.oneOf) as Json[]), depth + 1);
    if (s.allOf) return Object.assign({}, ...(s.allOf as Json[]).map((x) => gen(x, depth + 1)));
    if (s.nullable && r.chance(0.1)) return null;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'string':
        return str(s);
      case 'integer':
      case 'number': {
        if (s.enum) return r.pick(s.enum);
        const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? Number(s.exclusiveMinimum) + 1 : 0);
        const hi = s.maximum ?? lo + 1000;
        const n = lo + r.next() * (Math.min(hi, lo + 1e6) - lo);
        return type === 'integer' ? Math.floor(n) : Math.round(n * 100) / 100;
      }
      case 'boolean':
        return r.chance(0.5);
      case 'array': {
        const n = r.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3));
        return Array.from({ length: n }, () => gen(s.items, depth + 1));
      }
      default: {
        if (!s.properties && type !== 'object') return str({});
        const out: Json = {};
        const required = new Set<string>(s.required ?? []);
        for (const [k, v] of Object.entries<Json>(s.properties ?? {})) if (required.has(k) || r.chance(0.5)) out[k] = gen(v, depth + 1);
        return out;
      }
    }
  }
  /** Replaces one leaf (or the whole value) with something hostile. */
  function mutate(v: unknown, depth = 0): unknown {
    if (depth > 5 || v === null || typeof v !== 'object' || r.chance(0.25)) {
      return r.chance(0.55) ? r.pick(HOSTILE_STRINGS) : r.pick(HOSTILE_VALUES);
    }
    if (Array.isArray(v)) {
      if (!v.length) return [r.pick(HOSTILE_STRINGS)];
      const c = [...v];
      const i = r.int(0, c.length - 1);
      c[i] = mutate(c[i], depth + 1);
      return c;
    }
    const keys = Object.keys(v);
    const c: Json = { ...(v as Json) };
    if (!keys.length || r.chance(0.1))
      c[r.pick(['k\u0000', '\ud800', '__proto__', 'constructor', 'x'.repeat(300)])] = r.pick(HOSTILE_STRINGS);
    else {
      const k = r.pick(keys);
      if (r.chance(0.15)) delete c[k];
      else c[k] = mutate(c[k], depth + 1);
    }
    return c;
  }
  return { gen, mutate };
}
