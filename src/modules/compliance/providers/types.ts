// One interface for every identity-verification provider: open a hosted session, check a callback's signature,
// and map the provider's result onto Credence's KYC states.

/** The wire values of the two providers (decisions.md: exactly these strings; the first is the default). */
export const KYC_PROVIDERS = ['<provider_default>', '<provider_alt>'] as const;
export type KycProviderName = (typeof KYC_PROVIDERS)[number];

export type KycLevel = 'none' | 'basic' | 'full';

export interface KycSessionRequest {
  /** Credence's session id (a GUID) */
  sessionId: string;
  did: string;
  walletAddress: string;
  expiresAt: Date;
  /** where the provider must post its signed result */
  callbackUrl: string;
}

export interface KycResult {
  /** the provider's id for this notification (replays carry the same one) */
  eventId: string;
  providerSessionId: string;
  /** pending: an interim notice (e.g. resubmission requested) that is acknowledged and changes nothing */
  outcome: 'approved' | 'rejected' | 'pending';
  level: Exclude<KycLevel, 'none'>;
  /** yyyymmdd, when the provider verified a birth date */
  birthDate: number | null;
  reason: string | null;
}

export interface KycProvider {
  readonly name: KycProviderName;
  /** `local` is the built-in verification page; anything else talks to a real provider. */
  readonly kind: string;
  createSession(req: KycSessionRequest): Promise<{ providerSessionId: string; url: string }>;
  /** Checks the callback's signature over the exact bytes received. */
  verifySignature(rawBody: string, headers: Record<string, string | string[] | undefined>): boolean;
  /** Maps a verified callback body; throws a 400 AppError when it cannot be understood. */
  parseResult(body: unknown): KycResult;
}

/** yyyy-mm-dd -> yyyymmdd, or null unless it is a real calendar date between 1900-01-01 and today. */
export function parseBirthDate(v: unknown, today = new Date()): number | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  if (y < 1900 || dt.getTime() > today.getTime()) return null;
  return y * 10000 + mo * 100 + d;
}
