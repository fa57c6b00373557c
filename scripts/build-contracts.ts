// Compiles the Solidity contracts (contracts/src, including the verifiers exported by build:circuits, and the
// example consumers in contracts/examples) with solc-js and writes contracts/artifacts/<Contract>.json
// ({contractName, abi, bytecode}), which are committed.
//   npm run build:contracts
// With `-- --circuits <dir>` it compiles instead the verifiers of that circuits directory (the output of a
// `credence ceremony finalize --out <dir>`, which normally does it itself) into <dir>/verifiers/<Verifier>.json,
// the files `credence contracts deploy --circuits <dir>` deploys.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSolidity, compileVerifiers } from '../src/modules/proofs/solidity.js';

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

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--circuits');
  if (i >= 0) {
    if (!args[i + 1]) throw new Error('--circuits needs a directory');
    for (const f of await compileVerifiers(path.resolve(args[i + 1]))) console.log(`[build:contracts] ${f}`);
    return;
  }
  const compiled = compileSolidity(sources(), {
    importRoots: [srcDir, path.join(root, 'node_modules')],
    only: DEPLOYABLE,
    onWarning: (m) => console.warn(m),
  });
  mkdirSync(outDir, { recursive: true });
  for (const [name, artifact] of Object.entries(compiled)) {
    writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + '\n');
    console.log(`[build:contracts] ${name}: ${(artifact.bytecode.length - 2) / 2} bytes`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error((e as Error).message);
    process.exit(1);
  },
);
