// The integrator commands' settings and session: the API URL (--api-url, CREDENCE_API_URL, else the last one
// signed in to, else http://127.0.0.1:8080), and per URL the sign-in token and the API key in use, kept in
// config.json under $CREDENCE_CONFIG_DIR (default $XDG_CONFIG_HOME/credence, else ~/.config/credence), readable by
// its owner only (0600).
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createCredenceClient, type CredenceClient } from './sdk.js';

import { DEFAULT_API_URL } from './specs.js';

export { DEFAULT_API_URL };

export interface Profile {
  token?: string;
  tokenExpiresAt?: string;
  address?: string;
  apiKey?: string;
  apiKeyId?: string;
  apiKeyEnvironment?: 'live' | 'test';
  /** the secrets of the keys this CLI created or rotated (shown once by the service), by key id: `keys use` */
  keys?: Record<string, { apiKey: string; keyPrefix: string; environment: 'live' | 'test' }>;
}

export interface Store {
  apiUrl?: string;
  profiles: Record<string, Profile>;
}

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const configDir = () =>
  process.env.CREDENCE_CONFIG_DIR || path.join(process.env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'credence');
export const configFile = () => path.join(configDir(), 'config.json');

export function readStore(): Store {
  try {
    const s = JSON.parse(readFileSync(configFile(), 'utf8')) as Partial<Store>;
    return { apiUrl: s.apiUrl, profiles: s.profiles ?? {} };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`cannot read ${configFile()}: ${(e as Error).message}`);
  }
}

/** Written to a temporary file (mode 0600) and renamed over, so a crash never leaves half a file. */
export function writeStore(s: Store) {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.config.json.${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify(s, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, configFile());
}

export function apiUrlOf(flag: unknown, store = readStore()): string {
  const url = (typeof flag === 'string' && flag) || process.env.CREDENCE_API_URL || store.apiUrl || DEFAULT_API_URL;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new CliError(`--api-url: "${url}" is not an http(s) URL`, 2);
  }
  return url.replace(/\/+$/, '');
}

export function updateProfile(apiUrl: string, change: (p: Profile) => Profile, opts: { makeDefault?: boolean } = {}) {
  const s = readStore();
  s.profiles[apiUrl] = change(s.profiles[apiUrl] ?? {});
  if (opts.makeDefault) s.apiUrl = apiUrl;
  writeStore(s);
}

/** A client signed in with the saved session (commands that manage keys). */
export function sessionClient(flags: Record<string, unknown>): { client: CredenceClient; apiUrl: string; profile: Profile } {
  const apiUrl = apiUrlOf(flags['api-url']);
  const profile = readStore().profiles[apiUrl] ?? {};
  if (!profile.token) throw new CliError(`not logged in to ${apiUrl}: run credence login`);
  if (profile.tokenExpiresAt && Date.parse(profile.tokenExpiresAt) < Date.now())
    throw new CliError(`the session for ${apiUrl} has expired: run credence login`);
  return { client: createCredenceClient({ baseUrl: apiUrl, token: profile.token, timeoutMs: 20_000 }), apiUrl, profile };
}

/** A client with an API key (--api-key, CREDENCE_API_KEY, else the saved one). */
export function keyClient(
  flags: Record<string, unknown>,
  opts: { timeoutMs?: number } = {},
): { client: CredenceClient; apiUrl: string; apiKey: string } {
  const apiUrl = apiUrlOf(flags['api-url']);
  const apiKey =
    (typeof flags['api-key'] === 'string' && flags['api-key']) || process.env.CREDENCE_API_KEY || readStore().profiles[apiUrl]?.apiKey;
  if (!apiKey)
    throw new CliError(
      `no API key for ${apiUrl}: pass --api-key, set CREDENCE_API_KEY, or run credence login then credence keys create --test`,
    );
  return { client: createCredenceClient({ baseUrl: apiUrl, apiKey, timeoutMs: opts.timeoutMs ?? 20_000 }), apiUrl, apiKey };
}
