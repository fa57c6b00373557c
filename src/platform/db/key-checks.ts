// Instances sharing one database must hold the same secrets: what A encrypts or signs, B must read. At start
// each instance compares a key-check value per must-match setting with the one stored by the first instance
// (an HMAC of a fixed label keyed by the secret, so the database never holds the secret) and refuses to start
// on a mismatch, naming the setting, instead of failing later on other people's data (stuck webhooks, 404 hub
// connections, rejected JWTs).
import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from './types.js';

/** Secrets generated into the data dir when unset, by file name, and the setting that overrides each. */
export const MUST_MATCH_SECRETS: Record<string, string> = {
  'encryption-key': 'CREDENCE_ENCRYPTION_KEY',
  'jwt-secret': 'CREDENCE_JWT_SECRET',
  'hub-token-key': 'CREDENCE_HUB_TOKEN_KEY',
  'stripe-webhook-secret': 'STRIPE_WEBHOOK_SECRET',
  'kyc-callback-secret': 'CREDENCE_KYC_CALLBACK_SECRET',
  'issuer-key': 'CREDENCE_ISSUER_KEY',
};

export class KeyMismatchError extends Error {
  constructor(readonly settings: string[]) {
    super(
      `${settings.join(', ')} ${settings.length === 1 ? 'differs' : 'differ'} from the value the other instances sharing this database use. ` +
        'Every instance must be started with the same value (README, "Several instances"); to change a key deliberately, stop every instance ' +
        `and delete its check first: DELETE FROM instance_key_checks WHERE setting IN (${settings.map((s) => `'${s}'`).join(', ')}).`,
    );
    this.name = 'KeyMismatchError';
  }
}

/** Hex keys compare without their 0x prefix and case, so `0xAB..` in a setting equals `ab..` in a generated file. */
function normalize(value: string): string {
  const v = value.trim();
  return /^(0x)?[0-9a-fA-F]+$/.test(v) ? v.replace(/^0x/, '').toLowerCase() : v;
}

export function keyCheckValue(setting: string, value: string): string {
  return createHmac('sha256', normalize(value)).update(`credence key check v1 ${setting}`).digest('hex');
}

/**
 * Stores the check of each setting not yet known, then compares all of them; throws KeyMismatchError listing
 * every setting that differs. The first instance to start decides.
 */
export async function checkSharedKeys(db: Db, keys: { setting: string; value: string }[]): Promise<void> {
  if (keys.length === 0) return;
  const rows = keys.map((k) => ({ setting: k.setting, chk: keyCheckValue(k.setting, k.value) }));
  const json = JSON.stringify(rows);
  const read = () =>
    db.query<{ setting: string; check_value: string }>(
      `SELECT setting, check_value FROM instance_key_checks WHERE setting IN (SELECT setting FROM jsonb_to_recordset($1::jsonb) AS r(setting text))`,
      [json],
    );
  // A restart finds every check stored: one read. A stored check never changes, so this is what reading after an
  // insert (which would store nothing) gives.
  let stored = await read();
  if (stored.length < rows.length) {
    await db.query(
      `INSERT INTO instance_key_checks (setting, check_value)
       SELECT setting, chk FROM jsonb_to_recordset($1::jsonb) AS r(setting text, chk text)
       ON CONFLICT (setting) DO NOTHING`,
      [json],
    );
    // Read after the insert (its own statement, so a row another instance committed meanwhile is seen too).
    stored = await read();
  }
  const want = new Map(rows.map((r) => [r.setting, r.chk]));
  const bad = stored.filter((s) => want.get(s.setting) !== s.check_value).map((s) => s.setting);
  if (bad.length > 0) throw new KeyMismatchError(bad.sort());
}

/** The must-match keys this instance holds: each setting's value, else the secret generated for it (when in use). */
export function sharedKeys(config: Config, generated: Map<string, string>): { setting: string; value: string }[] {
  const fromSettings: Record<string, string | null> = {
    CREDENCE_ENCRYPTION_KEY: config.encryptionKey,
    CREDENCE_JWT_SECRET: config.jwtSecret,
    CREDENCE_HUB_TOKEN_KEY: config.hubTokenKey,
    STRIPE_WEBHOOK_SECRET: config.stripeWebhookSecret,
    CREDENCE_KYC_CALLBACK_SECRET: config.kycCallbackSecret,
    CREDENCE_ISSUER_KEY: config.issuerKey,
    // Provider credentials: checked when set, so two instances cannot talk to different accounts.
    STRIPE_SECRET_KEY: config.stripeSecretKey,
    CREDENCE_KYC_DEFAULT_WEBHOOK_SECRET: config.kycProviders.default?.webhookSecret ?? null,
    CREDENCE_KYC_ALT_WEBHOOK_SECRET: config.kycProviders.alt?.webhookSecret ?? null,
  };
  const out = new Map<string, string>();
  for (const [name, setting] of Object.entries(MUST_MATCH_SECRETS)) {
    const g = generated.get(name);
    if (g !== undefined) out.set(setting, g);
  }
  // A setting wins over a generated file of the same name (that is what the module uses).
  for (const [setting, v] of Object.entries(fromSettings)) if (v !== null) out.set(setting, v);
  return [...out].map(([setting, value]) => ({ setting, value }));
}
