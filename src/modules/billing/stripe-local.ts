// The built-in local payment provider as the Stripe SDK sees it: an HTTP client for the SDK that answers, from the
// local provider's own records, the calls Credence makes to read Stripe's state back (retrieve a checkout session or a
// subscription), so the same code path reads Stripe in production and the local provider offline. The HTTP client
// itself (stripe-local-http.ts) extends the SDK's classes and loads with the SDK, on the first payment call.
import type { Queryable } from '../../platform/db/types.js';

/** Price ids of the local provider's plans: its subscriptions carry them, as Stripe's carry the configured ones. */
export const LOCAL_PRICES = { starter: 'price_local_starter', growth: 'price_local_growth' } as const;

type Json = Record<string, unknown>;

export function createLocalObjects(db: Queryable) {
  return {
    async get(id: string, q: Queryable = db): Promise<Json | null> {
      const rows = await q.query<{ object: Json | string }>('SELECT object FROM local_payment_objects WHERE id = $1', [id]);
      const o = rows[0]?.object;
      return o === undefined ? null : typeof o === 'string' ? (JSON.parse(o) as Json) : o;
    },
    /** Creates the object, or merges the fields into it. */
    async put(id: string, fields: Json, q: Queryable = db) {
      await q.query(
        `INSERT INTO local_payment_objects (id, object) VALUES ($1, $2::jsonb)
         ON CONFLICT (id) DO UPDATE SET object = local_payment_objects.object || EXCLUDED.object, updated_at = now()`,
        [id, JSON.stringify({ id, ...fields })],
      );
    },
  };
}
export type LocalObjects = ReturnType<typeof createLocalObjects>;
