// Compliance: hosted KYC providers and their callbacks, legal ages, and the privacy limits of age checks.
import { ConfigError, int, str, url, type Env } from './env.js';

export interface KycProviderSettings {
  apiUrl: string;
  apiKey: string;
  webhookSecret: string;
}

export interface KycSettings {
  kycCallbackSecret: string | null;
  /** Legal age by jurisdiction for /compliance/age-verify (`CC` or `CC-RRR`); built-in: US-* 21, else 18. */
  legalAges: Record<string, number>;
  /** Hosted KYC providers by wire slot; a slot without settings uses the built-in verification page. */
  kycProviders: { default: KycProviderSettings | null; alt: KycProviderSettings | null };
  /** Distinct minimum ages one API key (and the other keys of its owner) may ask about one wallet per window. */
  ageCheckMinimums: number;
  /** Distinct non-legal-age minimums all keys together may ask about one wallet per window (sybil keys); 0: no cap. */
  ageCheckWalletMinimums: number;
  ageCheckWindowDays: number;
}

export function kycSettings(env: Env): KycSettings {
  return {
    kycCallbackSecret: str(env, 'CREDENCE_KYC_CALLBACK_SECRET'),
    legalAges: legalAges(str(env, 'CREDENCE_LEGAL_AGES')),
    kycProviders: { default: kycProvider(env, 'DEFAULT'), alt: kycProvider(env, 'ALT') },
    ageCheckMinimums: int(env, 'CREDENCE_AGE_CHECK_MINIMUMS', 3, 1, 150),
    ageCheckWalletMinimums: int(env, 'CREDENCE_AGE_CHECK_WALLET_MINIMUMS', 4, 0, 150),
    ageCheckWindowDays: int(env, 'CREDENCE_AGE_CHECK_WINDOW_DAYS', 30, 1, 3650),
  };
}

/** CREDENCE_KYC_<slot>_API_URL, _API_KEY and _WEBHOOK_SECRET: all three, or none. */
export function kycProvider(env: Env, slot: string): KycProviderSettings | null {
  const names = ['API_URL', 'API_KEY', 'WEBHOOK_SECRET'].map((n) => `CREDENCE_KYC_${slot}_${n}`);
  const apiUrl = url(env, names[0], ['http:', 'https:']);
  const apiKey = str(env, names[1]);
  const webhookSecret = str(env, names[2]);
  if (!apiUrl && !apiKey && !webhookSecret) return null;
  if (!apiUrl || !apiKey || !webhookSecret) throw new ConfigError(`${names.join(', ')} must be set together`);
  return { apiUrl, apiKey, webhookSecret };
}

/** `JP=20,US-MS=21`: jurisdiction (country, or country-region) = age in years. */
function legalAges(v: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (v ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]{2}(?:-[A-Za-z0-9]{1,3})?)=(\d{1,3})$/.exec(part);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 150) throw new ConfigError(`CREDENCE_LEGAL_AGES: "${part}" is not CC[-RRR]=<age 1-150>`);
    out[m[1].toUpperCase()] = Number(m[2]);
  }
  return out;
}
