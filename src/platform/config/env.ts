// Reading one environment variable: each reader trims, applies the default when unset or blank, and throws a
// ConfigError naming the variable and what it expects when the value is bad.

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

export function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === null) return def;
  if (!/^-?\d+$/.test(v)) throw new ConfigError(`${name} must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === null) return def;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${v}"`);
}

export function url(env: Env, name: string, protocols: string[]): string | null {
  const v = str(env, name);
  if (v === null) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${v}"`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
  }
  return v;
}

export function address(v: string, name: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new ConfigError(`${name}: "${v}" is not an Ethereum address`);
  return v.toLowerCase();
}

export function hexKey(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v === null) return null;
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(v)) throw new ConfigError(`${name} must be 32 bytes of hex`);
  return v.startsWith('0x') ? v : `0x${v}`;
}

/** A comma-separated list, blanks dropped. */
export function list(env: Env, name: string): string[] {
  return (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma-separated list of Ethereum addresses, lowercased. */
export function addresses(env: Env, name: string): string[] {
  return list(env, name).map((a) => address(a, name));
}

/** A shared secret: at least 32 characters, so a guessable short value is refused at start. */
export function secretSetting(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v !== null && v.length < 32) throw new ConfigError(`${name} must be at least 32 characters (e.g. openssl rand -hex 32)`);
  return v;
}
