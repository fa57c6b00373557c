// JWTs issued after Sign-In with Ethereum: HS256, one hour, claims sub (checksummed address), iat, exp, roles.

// jose (~46 modules) loads with the first sign-in or JWT, not at every start; once loaded it is used directly
let jose: typeof import('jose') | undefined;
let joseLoading: Promise<typeof import('jose')> | undefined;
const loadJose = async () => (jose ??= await (joseLoading ??= import('jose')));

export const JWT_LIFETIME_SECONDS = 3600;

export interface JwtUser {
  /** checksummed address */
  sub: string;
  /** lowercase address, for comparisons */
  address: string;
  roles: string[];
  exp: number;
  /** the environment chosen at sign-in: 'test' works on sandbox data only (claim `env`); live when absent */
  environment: 'live' | 'test';
}

export interface JwtService {
  issue(checksumAddress: string, roles: string[], environment?: 'live' | 'test'): Promise<{ token: string; expiresIn: number }>;
  verify(token: string): Promise<JwtUser | null>;
}

export function createJwtService(secret: string, issuer = 'credence'): JwtService {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(sub, roles, environment = 'live') {
      const { SignJWT } = jose ?? (await loadJose());
      const token = await new SignJWT(environment === 'test' ? { roles, env: 'test' } : { roles })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(`${JWT_LIFETIME_SECONDS}s`)
        .sign(key);
      return { token, expiresIn: JWT_LIFETIME_SECONDS };
    },
    async verify(token) {
      const { jwtVerify } = jose ?? (await loadJose());
      try {
        const { payload } = await jwtVerify(token, key, { issuer, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(payload.sub)) return null;
        const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
        return {
          sub: payload.sub,
          address: payload.sub.toLowerCase(),
          roles,
          exp: payload.exp ?? 0,
          environment: payload.env === 'test' ? 'test' : 'live',
        };
      } catch {
        return null;
      }
    },
  };
}
