// The built-in local payment provider as the Stripe SDK sees it: an HTTP client for the SDK that answers, from the
// local provider's own records, the calls Credence makes to read Stripe's state back (retrieve a checkout session or a
// subscription), so the same code path reads Stripe in production and the local provider offline.
import Stripe from 'stripe';
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

class LocalResponse extends Stripe.HttpClientResponse {
  constructor(
    status: number,
    private readonly body: unknown,
  ) {
    super(status, { 'request-id': 'req_local' });
  }
  override getRawResponse() {
    return this.body;
  }
  override toStream(): never {
    throw new Error('the local payment provider does not stream');
  }
  override toJSON() {
    return Promise.resolve(this.body);
  }
}

const missing = (what: string, id: string) =>
  new LocalResponse(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } });

/** Answers GET /v1/checkout/sessions/{id} and GET /v1/subscriptions/{id}; anything else is not offered locally. */
export class LocalStripeHttpClient extends Stripe.HttpClient {
  constructor(private readonly objects: LocalObjects) {
    super();
  }
  override getClientName() {
    return 'credence-local';
  }
  override async makeRequest(_host: string, _port: string, path: string, method: string) {
    const m = /^\/v1\/(checkout\/sessions|subscriptions)\/([^/?]+)/.exec(path);
    if (method !== 'GET' || !m) {
      return new LocalResponse(400, { error: { type: 'invalid_request_error', message: `The local payment provider does not answer ${method} ${path}.` } });
    }
    const id = decodeURIComponent(m[2]);
    const kind = m[1] === 'subscriptions' ? 'subscription' : 'checkout.session';
    const o = await this.objects.get(id);
    return o && o.object === kind ? new LocalResponse(200, o) : missing(kind, id);
  }
}
