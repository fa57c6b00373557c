// `for await (const w of credence.paginate('/api/v1/webhooks'))`: every record of a paged list, page after page,
// following `nextCursor` (or the `Link: rel="next"` header of lists whose body is an array). Errors are thrown
// as CredenceError classes.
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import { LISTS } from './operations.js';
import { errorFromResponse } from './errors.js';

export type ListPath = keyof typeof LISTS & keyof paths;
type Ok<P extends ListPath> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;
type Holder<P extends ListPath> = (typeof LISTS)[P];
/** The record type of a list: `ListItem<'/api/v1/webhooks'>` is a webhook. */
export type ListItem<P extends ListPath> =
  Holder<P> extends null
    ? Ok<P> extends readonly (infer I)[]
      ? I
      : never
    : Holder<P> extends keyof Ok<P>
      ? Ok<P>[Holder<P>] extends readonly (infer I)[] | undefined
        ? I
        : never
      : never;
type Params<P extends ListPath> = paths[P] extends { get: { parameters: infer X } } ? X : never;
type Without<T, K extends string> = T extends object ? { [k in keyof T as k extends K ? never : k]: T[k] } : T;

export interface PaginateInit<P extends ListPath> {
  /** path and query parameters of the list (its `cursor` is managed for you); `query.limit` sets the page size */
  params?: {
    path?: Params<P> extends { path?: infer X } ? X : never;
    query?: Without<Params<P> extends { query?: infer Q } ? Q : never, 'cursor'>;
  };
  signal?: AbortSignal;
}

export async function* paginate<P extends ListPath>(
  client: Client<paths>,
  path: P,
  init: PaginateInit<P> = {},
): AsyncGenerator<ListItem<P>, void, undefined> {
  const holder = LISTS[path] as string | null;
  let cursor: string | null = null;
  for (;;) {
    const query = { ...(init.params?.query as object | undefined), ...(cursor ? { cursor } : {}) };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res = await (client.GET as any)(path, { params: { ...init.params, query }, ...(init.signal ? { signal: init.signal } : {}) });
    if (!res.response.ok) throw errorFromResponse(res.response, res.error);
    const body = res.data as Record<string, unknown> | unknown[];
    const items = (holder === null ? body : (body as Record<string, unknown>)[holder]) as ListItem<P>[];
    yield* items;
    if (holder === null) {
      const link = /<([^>]+)>\s*;\s*rel="next"/.exec(res.response.headers.get('link') ?? '');
      cursor = link ? new URL(link[1], 'http://x').searchParams.get('cursor') : null;
    } else {
      const b = body as { nextCursor?: string | null; hasMore?: boolean };
      cursor = b.hasMore && b.nextCursor ? b.nextCursor : null;
    }
    if (!cursor) return;
  }
}
