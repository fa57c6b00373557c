// What `npm start` says once it listens: where it serves, the console and API explorer links, and how to get data
// (a service without a chain source scores nothing on-chain: NO_CHAIN_SOURCE). A plain text block on a terminal;
// one structured log line otherwise (containers, log collectors).
import type { Config } from './config.js';

export function startBanner(config: Config, version: string): { text: string; fields: Record<string, unknown> } {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const base = (config.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`).replace(/\/$/, '');
  const storage = config.databaseUrl?.startsWith('postgres')
    ? 'PostgreSQL'
    : config.databaseUrl === 'pglite://memory'
      ? 'embedded PGlite in memory (nothing kept)'
      : `embedded PGlite in ${config.dataDir}`;
  const chains = Object.keys(config.rpcUrls);
  const sources = [
    ...(chains.length ? [`JSON-RPC for chain${chains.length > 1 ? 's' : ''} ${chains.join(', ')}`] : []),
    ...(config.ingest.explorerApiUrl ? ['the explorer (every chain)'] : []),
  ];
  const lines = [
    `Credence ${version} is serving on ${base} (${storage})`,
    `  console      ${base}/console`,
    `  API explorer ${base}/swagger   (OpenAPI: ${base}/swagger/v1/swagger.json)`,
    `  health       ${base}/health`,
  ];
  if (sources.length) lines.push(`Chain sources: ${sources.join('; ')}.`);
  else {
    lines.push(
      'No chain source is configured: live scores read nothing on-chain (coverage NO_CHAIN_SOURCE). To see data:',
      '  npm run demo                    a local chain with scored wallets; prints an API key and its admin wallet key',
      '  a test key (cred_test_...)      deterministic sandbox scores: credence login, then credence keys create --test',
      '  CREDENCE_RPC_URL_<chainId>=...  a JSON-RPC endpoint per chain (e.g. CREDENCE_RPC_URL_1), or',
      '                                  CREDENCE_EXPLORER_API_URL + CREDENCE_EXPLORER_API_KEY (Etherscan API V2)',
    );
  }
  return {
    text: lines.join('\n'),
    fields: { url: base, console: `${base}/console`, apiExplorer: `${base}/swagger`, chainSources: sources },
  };
}
