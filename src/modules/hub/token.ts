// Connection tokens handed out by negotiate. They are signed rather than stored, so the WebSocket may reach
// any instance behind a load balancer (every instance shares the signing secret), with no sticky sessions.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  connectionId: string;
  /** API key id when the hub requires a key */
  keyId: string | null;
  /** the events the connection receives: test ones for test credentials (a cred_test_ key or a test sign-in), else live */
  environment: 'live' | 'test';
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export function createTokenSigner(secret: string, ttlSeconds = 300) {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest();
  return {
    issue(keyId: string | null, now = Date.now(), environment: 'live' | 'test' = 'live'): { connectionId: string; token: string } {
      const connectionId = randomUUID();
      const payload = b64(
        JSON.stringify({
          c: connectionId,
          k: keyId,
          e: Math.floor(now / 1000) + ttlSeconds,
          ...(environment === 'test' ? { v: 'test' } : {}),
        }),
      );
      return { connectionId, token: `${payload}.${b64(mac(payload))}` };
    },
    verify(token: string, now = Date.now()): TokenClaims | null {
      const [payload, sig] = token.split('.');
      if (!payload || !sig) return null;
      const want = mac(payload);
      const got = Buffer.from(sig, 'base64url');
      if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
      try {
        const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { c: string; k: string | null; e: number; v?: string };
        if (typeof c.e !== 'number' || c.e * 1000 < now) return null;
        return { connectionId: c.c, keyId: c.k, environment: c.v === 'test' ? 'test' : 'live' };
      } catch {
        return null;
      }
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
