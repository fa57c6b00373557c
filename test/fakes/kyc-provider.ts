// A fake hosted KYC provider speaking the session + decision-webhook protocol of providers/hosted.ts: it creates
// sessions (checking the API key) and, on demand, posts a decision signed with the shared secret to the
// callback URL it was given, over real HTTP, as the provider's servers would.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeKycSession {
  id: string;
  callback: string;
  vendorData: string;
  url: string;
}

export interface FakeKycProvider {
  url: string;
  apiKey: string;
  secret: string;
  sessions: Map<string, FakeKycSession>;
  /** Status to answer session creation with instead of success. */
  failCreate: number | null;
  /** Posts a decision for the session; returns the service's answer. */
  decide(
    id: string,
    status: string,
    opts?: { dateOfBirth?: string; reason?: string; signWith?: string },
  ): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export async function startFakeKycProvider(): Promise<FakeKycProvider> {
  const fake: FakeKycProvider = {
    url: '',
    apiKey: `pk_${randomUUID()}`,
    secret: `whsec_${randomUUID()}`,
    sessions: new Map(),
    failCreate: null,
    async decide(id, status, opts = {}) {
      const s = fake.sessions.get(id);
      if (!s) throw new Error(`fake provider: no session ${id}`);
      const raw = JSON.stringify({
        status: 'success',
        verification: {
          id,
          attemptId: randomUUID(),
          code: status === 'approved' ? 9001 : 9102,
          status,
          reason: opts.reason ?? null,
          vendorData: s.vendorData,
          person: { firstName: 'ADA', lastName: 'LOVELACE', dateOfBirth: opts.dateOfBirth ?? null },
          decisionTime: new Date().toISOString(),
        },
      });
      const res = await fetch(s.callback, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-auth-client': fake.apiKey,
          'x-hmac-signature': createHmac('sha256', opts.signWith ?? fake.secret)
            .update(raw)
            .digest('hex'),
        },
        body: raw,
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/v1/sessions') return json(404, { status: 'fail', message: 'not found' });
    if (req.headers['x-auth-client'] !== fake.apiKey)
      return json(401, {
        status: 'fail',
        code: 1801,
        message: 'Mandatory X-AUTH-CLIENT header containing the API key is missing or invalid',
      });
    if (fake.failCreate) return json(fake.failCreate, { status: 'fail', message: 'unavailable' });
    const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { verification?: { callback?: string; vendorData?: string } };
    const id = randomUUID();
    const session = {
      id,
      callback: body.verification?.callback ?? '',
      vendorData: body.verification?.vendorData ?? '',
      url: `${fake.url}/v/${id}`,
    };
    fake.sessions.set(id, session);
    json(201, {
      status: 'success',
      verification: { id, url: session.url, vendorData: session.vendorData, host: fake.url, status: 'created', sessionToken: randomUUID() },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((r) => server.close(() => r()));
  return fake;
}
