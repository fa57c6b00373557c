// `credence keys create|list|use|rotate|revoke`: the signed-in wallet's API keys, through the SDK. A created or
// rotated key is shown once and its secret kept in the config (for this API URL), as `stripe login` keeps its keys,
// so `keys use` can switch between them. A key is named by its id or by the prefix `keys list` shows. Creating a
// key of the other environment (a live key while a test key is in use) never replaces the key in use silently: it
// stays, and the command says which key is in use and how to switch.
import { unwrap, type CredenceClient } from './sdk.js';
import { CliError, readStore, sessionClient, updateProfile, apiUrlOf, type Profile } from './session.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECRET = /^cred_(live|test)_[A-Za-z0-9_-]{20,}$/;

interface Listed {
  id: string;
  keyPrefix: string;
  environment: 'live' | 'test';
  status: string;
}

/** "cred_test_ab12" as `keys list` prints it (a trailing … or ... as the console shows it is ignored). */
const asPrefix = (v: string) => v.trim().replace(/(…|\.\.\.)$/, '');

async function listKeys(client: CredenceClient): Promise<Listed[]> {
  const keys: Listed[] = [];
  for await (const k of client.paginate('/api/v1/billing/api-keys')) keys.push(k as Listed);
  return keys;
}

/** The key named by an id, the prefix `keys list` shows, or (for `use`) its full secret. */
async function resolveKey(client: CredenceClient, v: string): Promise<Listed> {
  const keys = await listKeys(client);
  if (UUID.test(v)) {
    const k = keys.find((x) => x.id === v.toLowerCase());
    if (!k) throw new CliError(`no key ${v} among this wallet's keys (see credence keys list)`);
    return k;
  }
  const p = asPrefix(v);
  if (!/^cred_(live|test)_/.test(p))
    throw new CliError(`"${v}" is not a key id (a UUID) nor a key prefix (cred_live_... or cred_test_...): see credence keys list`, 2);
  const matches = keys.filter((k) => k.keyPrefix === p || (SECRET.test(p) && p.startsWith(k.keyPrefix)));
  if (matches.length === 0) throw new CliError(`no key with prefix ${p} among this wallet's keys (see credence keys list)`);
  const active = matches.filter((k) => k.status === 'active');
  if (matches.length > 1 && active.length !== 1)
    throw new CliError(`the prefix ${p} names ${matches.length} keys (${matches.map((k) => k.id).join(', ')}): give the key id`, 2);
  return active[0] ?? matches[0];
}

const describeKey = (id: string | undefined, p: Profile) => {
  const known = id ? p.keys?.[id] : undefined;
  return id
    ? `${known?.keyPrefix ?? p.apiKey?.slice(0, 14) ?? id} (${p.apiKeyEnvironment ?? known?.environment ?? 'unknown'}, ${id})`
    : 'none';
};

/** `credence keys use <id|prefix|secret>`: the key the other commands use for this API URL. */
async function useKey(flags: Record<string, unknown>, v: string) {
  const apiUrl = apiUrlOf(flags['api-url']);
  const profile = readStore().profiles[apiUrl] ?? {};
  const held = Object.entries(profile.keys ?? {});
  const p = asPrefix(v);
  // a key this CLI holds: by id or prefix, no call needed
  let found = held.find(([id, k]) => id === v.toLowerCase() || k.keyPrefix === p);
  let secret = found?.[1].apiKey;
  if (!found) {
    const { client } = sessionClient(flags);
    const k = await resolveKey(client, v);
    if (k.status !== 'active') throw new CliError(`key ${k.keyPrefix} (${k.id}) is ${k.status}: it cannot be used`);
    secret = SECRET.test(p) ? p : profile.keys?.[k.id]?.apiKey;
    if (!secret) {
      throw new CliError(
        `this CLI does not hold the secret of key ${k.keyPrefix} (${k.id}): the service shows it only once, when it is created or rotated. ` +
          `Give the secret itself (credence keys use cred_...), or rotate the key to get a new one (credence keys rotate ${k.keyPrefix})`,
      );
    }
    found = [k.id, { apiKey: secret, keyPrefix: k.keyPrefix, environment: k.environment }];
  }
  const [id, k] = found;
  updateProfile(apiUrl, (pr) => ({
    ...pr,
    apiKey: secret!,
    apiKeyId: id,
    apiKeyEnvironment: k.environment,
    keys: { ...pr.keys, [id]: { apiKey: secret!, keyPrefix: k.keyPrefix, environment: k.environment } },
  }));
  console.log(`now using ${k.environment} key ${k.keyPrefix} (${id}) for ${apiUrl}`);
}

type Session = ReturnType<typeof sessionClient>;
const json = (v: unknown) => console.log(JSON.stringify(v, null, 2));

/** `credence keys create`: a new key, saved (unless --no-save) and put in use unless a key of the other environment is. */
async function createKey(flags: Record<string, unknown>, { client, apiUrl, profile }: Session) {
  const note = (line: string) => (flags.json ? console.error(line) : console.log(line));
  const test = flags.test === true;
  const email = (flags.email as string | undefined) ?? (test ? 'cli@credence.invalid' : undefined);
  if (!email) throw new CliError('credence keys create: a live key needs --email <contact email> (or create a test key with --test)', 2);
  const body = {
    organizationName: (flags.org as string | undefined) ?? 'Credence CLI',
    contactEmail: email,
    environment: test ? ('test' as const) : ('live' as const),
    ...(flags.tier ? { tier: flags.tier as 'Free' } : {}),
    ...(flags['expires-at'] ? { expiresAt: flags['expires-at'] as string } : {}),
  };
  const k = await unwrap(client.POST('/api/v1/billing/api-keys', { body }));
  const save = flags['no-save'] !== true;
  // a key of the other environment does not take over from the key in use unless asked (--use)
  const inUse = profile.apiKeyId && profile.apiKey ? profile : null;
  const takeOver = save && (!inUse || flags.use === true || inUse.apiKeyEnvironment === k.environment);
  if (save) {
    const held = { apiKey: k.apiKey, keyPrefix: k.keyPrefix, environment: k.environment };
    updateProfile(apiUrl, (p) => ({
      ...p,
      ...(takeOver ? { apiKey: k.apiKey, apiKeyId: k.id, apiKeyEnvironment: k.environment } : {}),
      keys: { ...p.keys, [k.id]: held },
    }));
  }
  if (flags.json) json(k);
  else {
    console.log(
      `created ${k.environment} key ${k.id} (${k.tier}, ${k.rateLimit}/s, ${k.monthlyQueryLimit ?? 'unlimited'} queries a month)`,
    );
    console.log(`  ${k.apiKey}`);
  }
  if (!save) note('  shown once: store it now (not saved: --no-save)');
  else if (takeOver)
    note(
      `  shown once; saved, and now the key in use for ${apiUrl}${inUse && inUse.apiKeyId !== k.id ? ` (instead of ${describeKey(inUse.apiKeyId, inUse)})` : ''}`,
    );
  else {
    note(
      `  shown once; saved. The key in use stays ${describeKey(inUse!.apiKeyId, inUse!)}: this ${k.environment} key does not replace a ${inUse!.apiKeyEnvironment ?? 'different'} key unless you ask.`,
    );
    note(`  switch with: credence keys use ${k.keyPrefix}`);
  }
}

/** `credence keys list`: the wallet's keys, the one in use marked. */
async function printKeys(flags: Record<string, unknown>, { client, profile }: Session) {
  const keys = [];
  for await (const k of client.paginate('/api/v1/billing/api-keys')) keys.push(k);
  if (flags.json) return json(keys);
  if (!keys.length) return console.log('no keys: credence keys create --test');
  console.log(
    `${'id'.padEnd(37)}${'prefix'.padEnd(18)}${'env'.padEnd(6)}${'tier'.padEnd(11)}${'status'.padEnd(9)}${'created'.padEnd(22)}last used`,
  );
  for (const k of keys) {
    const mark = k.id === profile.apiKeyId ? ' *' : '';
    console.log(
      `${k.id.padEnd(37)}${k.keyPrefix.padEnd(18)}${k.environment.padEnd(6)}${k.tier.padEnd(11)}${k.status.padEnd(9)}${String(k.createdAt).slice(0, 19).padEnd(22)}${k.lastUsedAt ? String(k.lastUsedAt).slice(0, 19) : '-'}${mark}`,
    );
  }
  if (keys.some((k) => k.id === profile.apiKeyId)) console.log('* the key in use (switch with credence keys use <id|prefix>)');
}

/** `credence keys rotate <id|prefix>`: a new secret, saved; the previous one works for the grace period. */
async function rotateKey(flags: Record<string, unknown>, { client, apiUrl, profile }: Session, id: string) {
  const grace = flags['grace-period'] === undefined ? undefined : Number(flags['grace-period']);
  if (grace !== undefined && (!Number.isInteger(grace) || grace < 0))
    throw new CliError('--grace-period must be a whole number of seconds', 2);
  const k = await unwrap(
    client.POST('/api/v1/billing/api-keys/{id}/rotate', {
      params: { path: { id } },
      body: grace === undefined ? {} : { gracePeriodSeconds: grace },
    }),
  );
  updateProfile(apiUrl, (p) => ({
    ...p,
    ...(p.apiKeyId === id ? { apiKey: k.apiKey } : {}),
    keys: { ...p.keys, [id]: { apiKey: k.apiKey, keyPrefix: k.keyPrefix, environment: k.environment } },
  }));
  if (flags.json) return json(k);
  console.log(`rotated key ${k.id}: new secret (shown once${profile.apiKeyId === id ? '; saved as the key in use' : ''}):`);
  console.log(`  ${k.apiKey}`);
  console.log(`  the previous secret works until ${k.previousKeyExpiresAt ?? 'now (ended)'}`);
}

/** `credence keys revoke <id|prefix>`: revoked, and forgotten by this CLI. */
async function revokeKey({ client, apiUrl, profile }: Session, target: Listed) {
  const id = target.id;
  await unwrap(client.DELETE('/api/v1/billing/api-keys/{id}', { params: { path: { id } } }));
  updateProfile(apiUrl, (pr) => {
    const { [id]: _gone, ...keys } = pr.keys ?? {};
    if (pr.apiKeyId !== id) return { ...pr, keys };
    const { apiKey: _k, apiKeyId: _i, apiKeyEnvironment: _e, ...p } = pr;
    return { ...p, keys };
  });
  console.log(
    `revoked key ${target.keyPrefix} (${id})${profile.apiKeyId === id ? '; it was the key in use: choose another with credence keys use <id|prefix>' : ''}`,
  );
}

export async function runKeys(sub: string, flags: Record<string, unknown>, positionals: string[]) {
  if (sub === 'use') return useKey(flags, positionals[0]);
  const session = sessionClient(flags);
  if (sub === 'create') return createKey(flags, session);
  if (sub === 'list') return printKeys(flags, session);
  const target = await resolveKey(session.client, positionals[0]);
  if (sub === 'rotate') return rotateKey(flags, session, target.id);
  return revokeKey(session, target);
}
