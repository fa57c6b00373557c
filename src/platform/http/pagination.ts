// One pagination contract for every list: `limit` + an opaque `cursor`; answers carry `nextCursor` and `hasMore`,
// or, where the contract fixes a bare array as the body, a `Link: <...>; rel="next"` header. A cursor names its
// listing and its position, with a checksum: a cursor from another listing, edited or truncated answers 400
// (never a 500 from the database). It carries no authority: the request's own filters and credentials still apply.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Nullable } from './schemas.js';
import { fieldError } from '../errors.js';

export const CURSOR_MESSAGE = 'is not a cursor returned by this listing (pass the `nextCursor` of the previous page unchanged)';

/** What the OpenAPI document says once, in its description, about every list. */
export const PAGINATION_DOC =
  'Pagination: every list takes `limit` (page size) and `cursor` (the `nextCursor` of the previous page, unchanged; omit it for the first page) ' +
  'and answers `nextCursor` (null on the last page) and `hasMore`. Lists whose body is a bare array put the next page in a ' +
  '`Link: <url>; rel="next"` header instead (absent on the last page). Cursors are opaque strings: a cursor that was edited, truncated or ' +
  'taken from another list answers 400 `validation_failed` naming the field. Older parameters (`before`, `after`) keep working where a list had them.';

const sum = (payload: string) => createHash('sha256').update(`credence-cursor:${payload}`).digest('base64url').slice(0, 10);

/** An opaque cursor for `kind` (the listing) at the position `values` (e.g. [createdAt, id]). */
export function encodeCursor(kind: string, values: readonly string[]): string {
  const payload = Buffer.from(JSON.stringify([kind, ...values])).toString('base64url');
  return `${payload}.${sum(payload)}`;
}

/**
 * The position of a cursor of `kind`, each value checked against `patterns` (one per value); anything else is a
 * 400 naming `field`.
 */
export function decodeCursor(kind: string, cursor: string, patterns: readonly RegExp[], field = 'cursor'): string[] {
  const [payload, check, extra] = cursor.split('.');
  if (payload && check && extra === undefined && check === sum(payload)) {
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      if (Array.isArray(parsed) && parsed[0] === kind && parsed.length === patterns.length + 1) {
        const values = parsed.slice(1);
        if (values.every((v, i) => typeof v === 'string' && patterns[i].test(v))) return values as string[];
      }
    } catch {
      /* falls through to the 400 */
    }
  }
  throw fieldError(field, CURSOR_MESSAGE);
}

/** Value patterns shared by most lists: a creation time with microseconds and a UUID, or a bigint id. */
export const CREATED_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const BIGINT_ID = /^(0|[1-9][0-9]{0,18})$/;
/** True when a decimal string fits PostgreSQL's bigint (the pattern above is a quick filter; this is exact). */
export const fitsBigint = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= 9223372036854775807n;

/** SQL for a keyset column holding the exact creation time (JS Dates drop microseconds). */
export const createdKeySql = (col = 'created_at') => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const PageLimit = (max: number, dflt: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `page size, 1-${max} (default ${dflt})` });
export const PageCursor = () =>
  Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'the `nextCursor` of the previous page, unchanged (see Pagination in the API description); omit for the first page',
  });
/** `limit` and `cursor`, for a list's querystring. */
export const pageQuery = (max: number, dflt: number) => ({
  limit: Type.Optional(PageLimit(max, dflt)),
  cursor: Type.Optional(PageCursor()),
});
/** `nextCursor` and `hasMore`, for a list's body. */
export const pageFields = () => ({
  nextCursor: Nullable(Type.String({ description: 'pass as `cursor` for the next page; null on the last page' })),
  hasMore: Type.Boolean({ description: 'true when another page follows' }),
});

/**
 * Cuts a page from rows fetched with `limit + 1`: the page, whether more follow, and the cursor after the page's
 * last row.
 */
export function cutPage<T>(rows: T[], limit: number, kind: string, position: (row: T) => string[]) {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = items.at(-1);
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(kind, position(last)) : null };
}

/** Sets `Link: <this url with ?cursor=next>; rel="next"` for a list whose body is a bare array. */
export function linkNext(req: FastifyRequest, reply: FastifyReply, nextCursor: string | null): void {
  if (!nextCursor) return;
  const url = new URL(req.url, 'http://x');
  url.searchParams.set('cursor', nextCursor);
  reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
}
