// The built-in payment and KYC providers of development. They let anyone upgrade a key or approve a KYC for
// free: fine on a laptop, never on a public deployment, so they decide the default listening address too.
import { bool, str, type Env } from './env.js';
import { kycProvider, type KycProviderSettings } from './kyc.js';

export interface LocalProviderSettings {
  /** The built-in payment and KYC providers (development): off behind https or in production unless forced on. */
  localProviders: boolean;
}

export function localProviderSettings(env: Env): LocalProviderSettings {
  return { localProviders: localProviders(env) };
}

/**
 * Unset, they are on unless CREDENCE_PUBLIC_URL is https or NODE_ENV=production (the one setting that reads
 * NODE_ENV, so a production deployment never serves free upgrades by omission); CREDENCE_LOCAL_PROVIDERS=true|false
 * decides explicitly.
 */
function localProviders(env: Env): boolean {
  if (str(env, 'CREDENCE_LOCAL_PROVIDERS') !== null) return bool(env, 'CREDENCE_LOCAL_PROVIDERS', true);
  const publicUrl = str(env, 'CREDENCE_PUBLIC_URL');
  return !(publicUrl?.toLowerCase().startsWith('https:') || str(env, 'NODE_ENV') === 'production');
}

/**
 * Where to listen when HOST is unset: every interface, except while a built-in local provider (free payment page,
 * KYC page that approves anything) is on, when only this machine may reach them. HOST=0.0.0.0 opts out.
 */
export function defaultHost(env: Env): string {
  const on = activeLocalProviders({
    localProviders: localProviders(env),
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    kycProviders: { default: kycProvider(env, 'DEFAULT'), alt: kycProvider(env, 'ALT') },
  });
  return on.length > 0 ? '127.0.0.1' : '0.0.0.0';
}

/** The built-in local providers these settings turn on: payment without STRIPE_SECRET_KEY, KYC for an unset slot. */
export function activeLocalProviders(c: {
  localProviders: boolean;
  stripeSecretKey: string | null;
  kycProviders: { default: KycProviderSettings | null; alt: KycProviderSettings | null };
}): ('payment' | 'kyc')[] {
  if (!c.localProviders) return [];
  const on: ('payment' | 'kyc')[] = [];
  if (!c.stripeSecretKey) on.push('payment');
  if (!c.kycProviders.default || !c.kycProviders.alt) on.push('kyc');
  return on;
}
