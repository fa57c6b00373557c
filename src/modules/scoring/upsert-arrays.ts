// PostgreSQL array literals for the scores upsert, built in one pass. The driver's own array parameters escape every
// element character by character; most of these columns hold values that never need quoting.

/** Values that never need quoting in an array literal: numbers (Infinity and NaN too, as float8 reads them) and
 *  ISO timestamps (toISOString). null is NULL. */
export function plainArray(values: readonly (string | number | null)[]): string {
  let s = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) s += ',';
    s += v === null ? 'NULL' : v;
  }
  return s + '}';
}

const BARE = /^[A-Za-z0-9._:+-]+$/;

/** Any text: quoted (backslash before `"` and `\`) unless it is made only of characters that need none, is not
 *  empty and does not read as NULL. */
export function textArray(values: readonly (string | null)[]): string {
  let s = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) s += ',';
    if (v === null) s += 'NULL';
    else if (BARE.test(v) && v.toUpperCase() !== 'NULL') s += v;
    else s += `"${v.replace(/[\\"]/g, '\\$&')}"`;
  }
  return s + '}';
}
