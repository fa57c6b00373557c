// PostgreSQL array literals for the scores upsert, one column of the rows at a time, built with one join (no
// intermediate array of the column, no chain of concatenated strings). The driver's own array parameters escape
// every element character by character; most of these columns hold values that never need quoting.

const parts: (string | number)[] = [];

/** Values that never need quoting in an array literal: numbers (Infinity and NaN too, as float8 reads them) and
 *  ISO timestamps (toISOString). null is NULL. */
export function plainArray<R>(rows: readonly R[], get: (row: R) => string | number | null): string {
  parts.length = rows.length;
  for (let i = 0; i < rows.length; i++) {
    const v = get(rows[i]);
    parts[i] = v === null ? 'NULL' : v;
  }
  return literal();
}

const BARE = /^[A-Za-z0-9._:+-]+$/;

/** Any text: quoted (backslash before `"` and `\`) unless it is made only of characters that need none, is not
 *  empty and does not read as NULL. */
export function textArray<R>(rows: readonly R[], get: (row: R) => string | null): string {
  parts.length = rows.length;
  for (let i = 0; i < rows.length; i++) {
    const v = get(rows[i]);
    parts[i] = v === null ? 'NULL' : BARE.test(v) && v.toUpperCase() !== 'NULL' ? v : `"${v.replace(/[\\"]/g, '\\$&')}"`;
  }
  return literal();
}

function literal(): string {
  const s = `{${parts.join(',')}}`;
  parts.length = 0;
  return s;
}
