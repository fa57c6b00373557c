// The one data-access interface; PGlite and a PostgreSQL server both implement it with the same SQL.

/** Options of one statement. */
export interface QueryOptions {
  /** A prepared statement's name (see `prepared()`): on PostgreSQL the statement is parsed and planned once per
   *  connection and its plan cached; PGlite runs it as an unnamed statement (its protocol API has no named ones). */
  name?: string;
  /** false: no JIT compilation for this statement (PostgreSQL). A large statement run for many rows (a chunk of
   *  wallets) crosses jit_above_cost on its estimate alone, and compiling it took seconds where running it takes
   *  milliseconds. PGlite has no JIT. */
  jit?: false;
  /** PostgreSQL: plan the named statement once for any parameters (plan_cache_mode = force_generic_plan). Without
   *  it each connection plans its first five executions for their parameters, which for a large statement (the
   *  features of a chunk of wallets) cost about as much as running it (from the sixth on it usually gets this plan). */
  genericPlan?: true;
}

export interface Queryable {
  /** Runs one statement with $1.. parameters and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** PostgreSQL transactions only: `COPY ... FROM STDIN` (text format) of the given rows' text, for bulk loads.
   *  PGlite has no COPY FROM STDIN over its query API: callers keep a statement path for it. */
  copyFrom?(sql: string, data: string | Uint8Array): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in a transaction; every query inside must use the given handle. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections (open, idle, callers waiting for one) and how many ended under a client. */
  pool?(): { total: number; idle: number; waiting: number; lost: number };
  /** PostgreSQL: called each time a connection ends under a client (outage, failover); returns the unsubscriber. */
  onConnectionLost?(fn: (err: Error) => void): () => void;
}

export async function one<T>(q: Queryable, sql: string, params?: unknown[]): Promise<T> {
  const rows = await q.query<T>(sql, params);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

export async function maybeOne<T>(q: Queryable, sql: string, params?: unknown[]): Promise<T | null> {
  const rows = await q.query<T>(sql, params);
  return rows[0] ?? null;
}

/** Options naming a statement after its text (one name per distinct text: PostgreSQL refuses a name reused for
 *  another text on the same connection). For hot statements whose planning costs more than their execution. */
export function prepared(sql: string): QueryOptions {
  let h = 0x811c9dc5;
  for (let i = 0; i < sql.length; i++) h = Math.imul(h ^ sql.charCodeAt(i), 0x01000193) >>> 0;
  return { name: `credence_${h.toString(16)}_${sql.length}` };
}
