// Compiles the Solidity contracts (contracts/src, including the verifiers exported by build:circuits, and the
// example consumers in contracts/examples) with solc-js and writes contracts/artifacts/<Contract>.json
// ({contractName, abi, bytecode}), which are committed.
//   npm run build:contracts
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const solc = require('solc') as { compile(input: string, opts: { import(p: string): { contents: string } | { error: string } }): string; version(): string };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(root, 'contracts/src');
const examplesDir = path.join(root, 'contracts/examples');
const outDir = path.join(root, 'contracts/artifacts');
/** The contracts worth an artifact (libraries and interfaces are compiled into them). */
export const DEPLOYABLE = ['ReputationOracle', 'CredentialVerifier', 'ScoreThresholdVerifier', 'AgeOverVerifier', 'ExampleLender'];

function sources(): Record<string, { content: string }> {
  const out: Record<string, { content: string }> = {};
  const walk = (base: string, prefix: string, dir = base) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(base, prefix, p);
      else if (e.name.endsWith('.sol')) out[prefix + path.relative(base, p)] = { content: readFileSync(p, 'utf8') };
    }
  };
  walk(srcDir, '');
  walk(examplesDir, 'examples/');
  return out;
}

function findImport(p: string) {
  for (const base of [srcDir, path.join(root, 'node_modules')]) {
    const f = path.join(base, p);
    if (existsSync(f)) return { contents: readFileSync(f, 'utf8') };
  }
  return { error: `not found: ${p}` };
}

const input = {
  language: 'Solidity',
  sources: sources(),
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
for (const e of output.errors ?? []) if (e.severity !== 'error') console.warn(e.formattedMessage);
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
for (const file of Object.values(output.contracts)) {
  for (const [name, c] of Object.entries(file)) {
    if (!DEPLOYABLE.includes(name)) continue;
    const artifact = { contractName: name, compiler: `solc ${solc.version()}`, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + '\n');
    console.log(`[build:contracts] ${name}: ${c.evm.bytecode.object.length / 2} bytes`);
  }
}
