// The local payment provider's HTTP client for the Stripe SDK (see stripe-local.ts): loaded with the SDK on the first
// payment call.
import Stripe from 'stripe';
import type { LocalObjects } from './stripe-local.js';

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
      return new LocalResponse(400, {
        error: { type: 'invalid_request_error', message: `The local payment provider does not answer ${method} ${path}.` },
      });
    }
    const id = decodeURIComponent(m[2]);
    const kind = m[1] === 'subscriptions' ? 'subscription' : 'checkout.session';
    const o = await this.objects.get(id);
    return o && o.object === kind ? new LocalResponse(200, o) : missing(kind, id);
  }
}
