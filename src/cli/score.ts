// `credence score <address|ens>`: a wallet's scores (all nine categories, or one) through the SDK, with the
// hint the service gives when no chain source is configured.
import { unwrap } from './sdk.js';
import { CliError, keyClient } from './session.js';
import { suggest } from './args.js';
import { CATEGORIES } from './specs.js';

type Category = (typeof CATEGORIES)[number];

interface Entry {
  category: string;
  score: number;
  confidence: number;
  tier: string;
  modelVersion: string;
  factors?: { code: string; description: string; impact: number }[];
  coverage?: { status: string; reason: string | null };
}

export async function runScore(flags: Record<string, unknown>, positionals: string[]) {
  const { client } = keyClient(flags);
  const address = positionals[0];
  let category: Category | undefined;
  if (typeof flags.category === 'string') {
    const c = flags.category.toUpperCase().replace(/-/g, '_');
    if (!(CATEGORIES as readonly string[]).includes(c)) {
      const s = suggest(c, [...CATEGORIES]);
      throw new CliError(
        `--category: unknown category "${flags.category}"${s.length ? `; did you mean ${s.join(' or ')}?` : ''} (${CATEGORIES.join(', ')})`,
        2,
      );
    }
    category = c as Category;
  }
  // factors are always asked for: the NO_CHAIN_SOURCE one says how to get data
  const query = { explain: true };
  let body: unknown;
  let entries: Entry[];
  let who: string;
  if (category) {
    const r = await unwrap(client.GET('/api/v1/reputation/{address}/{category}', { params: { path: { address, category }, query } }));
    body = r;
    const x = r as unknown as Entry & { address?: string };
    entries = [x];
    who = x.address ?? address;
  } else {
    const r = await unwrap(client.GET('/api/v1/reputation/{address}', { params: { path: { address }, query } }));
    body = r;
    entries = r.scores as unknown as Entry[];
    who = r.ensName ? `${r.address} (${r.ensName})` : r.address;
  }
  if (flags.json) {
    console.log(JSON.stringify(body, null, 2));
    return;
  }
  console.log(who);
  for (const e of entries) {
    console.log(`  ${e.category.padEnd(14)} ${String(e.score).padStart(4)}  ${e.tier.padEnd(10)} confidence ${e.confidence.toFixed(2)}`);
    if (flags.explain)
      for (const f of e.factors ?? []) console.log(`      ${f.impact >= 0 ? '+' : ''}${f.impact} ${f.code}: ${f.description}`);
  }
  const model = entries[0]?.modelVersion;
  if (model) console.log(`  model ${model}${model.endsWith('-sandbox') ? ' (test key: deterministic sandbox data)' : ''}`);
  const none = entries.find((e) => e.coverage?.status === 'none');
  if (none) {
    const hint = none.factors?.find((f) => f.code === 'NO_CHAIN_SOURCE')?.description;
    console.log(
      `\nNO_CHAIN_SOURCE: ${hint ?? 'the service has no chain source configured: these scores say nothing about on-chain activity'}`,
    );
  }
}
