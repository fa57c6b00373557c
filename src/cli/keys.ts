// `credence keys create|list|rotate|revoke`: the signed-in wallet's API keys, through the SDK. A created key is
// shown once and saved as the key the other commands use (for this API URL), as `stripe login` keeps its keys.
import { unwrap } from './sdk.js';
import { CliError, sessionClient, updateProfile } from './session.js';


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function keyId(v: string): string {
  if (!UUID.test(v)) throw new CliError(`"${v}" is not a key id (a UUID: see credence keys list)`, 2);
  return v;
}

export async function runKeys(sub: string, flags: Record<string, unknown>, positionals: string[]) {
  const { client, apiUrl, profile } = sessionClient(flags);
  const json = (v: unknown) => console.log(JSON.stringify(v, null, 2));
  if (sub === 'create') {
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
    if (save) updateProfile(apiUrl, (p) => ({ ...p, apiKey: k.apiKey, apiKeyId: k.id, apiKeyEnvironment: k.environment }));
    if (flags.json) return json(k);
    console.log(`created ${k.environment} key ${k.id} (${k.tier}, ${k.rateLimit}/s, ${k.monthlyQueryLimit ?? 'unlimited'} queries a month)`);
    console.log(`  ${k.apiKey}`);
    console.log(save ? '  shown once; saved as the key in use for this API URL' : '  shown once: store it now');
    return;
  }
  if (sub === 'list') {
    const keys = [];
    for await (const k of client.paginate('/api/v1/billing/api-keys')) keys.push(k);
    if (flags.json) return json(keys);
    if (!keys.length) return console.log('no keys: credence keys create --test');
    console.log(`${'id'.padEnd(37)}${'prefix'.padEnd(18)}${'env'.padEnd(6)}${'tier'.padEnd(11)}${'status'.padEnd(9)}${'created'.padEnd(22)}last used`);
    for (const k of keys) {
      const mark = k.id === profile.apiKeyId ? ' *' : '';
      console.log(`${k.id.padEnd(37)}${k.keyPrefix.padEnd(18)}${k.environment.padEnd(6)}${k.tier.padEnd(11)}${k.status.padEnd(9)}${String(k.createdAt).slice(0, 19).padEnd(22)}${k.lastUsedAt ? String(k.lastUsedAt).slice(0, 19) : '-'}${mark}`);
    }
    if (keys.some((k) => k.id === profile.apiKeyId)) console.log('* the key in use');
    return;
  }
  const id = keyId(positionals[0]);
  if (sub === 'rotate') {
    const grace = flags['grace-period'] === undefined ? undefined : Number(flags['grace-period']);
    if (grace !== undefined && (!Number.isInteger(grace) || grace < 0)) throw new CliError('--grace-period must be a whole number of seconds', 2);
    const k = await unwrap(client.POST('/api/v1/billing/api-keys/{id}/rotate', { params: { path: { id } }, body: grace === undefined ? {} : { gracePeriodSeconds: grace } }));
    if (profile.apiKeyId === id) updateProfile(apiUrl, (p) => ({ ...p, apiKey: k.apiKey }));
    if (flags.json) return json(k);
    console.log(`rotated key ${k.id}: new secret (shown once${profile.apiKeyId === id ? '; saved as the key in use' : ''}):`);
    console.log(`  ${k.apiKey}`);
    console.log(`  the previous secret works until ${k.previousKeyExpiresAt ?? 'now (ended)'}`);
    return;
  }
  await unwrap(client.DELETE('/api/v1/billing/api-keys/{id}', { params: { path: { id } } }));
  if (profile.apiKeyId === id) updateProfile(apiUrl, ({ apiKey: _k, apiKeyId: _i, apiKeyEnvironment: _e, ...p }) => p);
  console.log(`revoked key ${id}`);
}
