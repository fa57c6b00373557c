// Solidity for the circuit keys: the Groth16 verifiers snarkjs exports from a zkey, and compiling Solidity with
// solc-js. Shared by `npm run build:contracts` (scripts/build-contracts.ts, every contract into contracts/artifacts)
// and `credence ceremony finalize` (the verifiers of new keys into <out>/verifiers/<Name>.json), so that
// `credence contracts deploy` never needs a compiler: solc is a devDependency, absent from the production image.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Abi, Hex } from 'viem';
import { CIRCUIT_NAMES, ROOT, VERIFIER_NAMES, circuitFiles } from './artifacts.js';

/** What contracts/artifacts/<Contract>.json and <circuits dir>/verifiers/<Verifier>.json hold. */
export interface ContractArtifact {
  contractName: string;
  compiler?: string;
  abi: Abi;
  bytecode: Hex;
}

interface Solc {
  compile(input: string, opts?: { import(p: string): { contents: string } | { error: string } }): string;
  version(): string;
}

/** The settings every Credence contract is compiled with (the gas figures in docs/proofs.md assume them). */
export const SOLC_SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } as const;

let solc: Solc | null | undefined;
/** solc-js when it is installed (a devDependency: a source checkout after `npm ci`), else null. */
export function loadSolc(): Solc | null {
  if (solc === undefined) {
    try {
      solc = createRequire(import.meta.url)('solc') as Solc;
    } catch {
      solc = null;
    }
  }
  return solc;
}

export class SolcMissingError extends Error {
  constructor(what: string) {
    super(
      `${what} needs solc, a devDependency that is not installed here (the production image has none): run it in a source checkout after npm ci`,
    );
  }
}

/**
 * Compiles the sources (source unit name -> content), resolving imports under `importRoots`; returns an artifact
 * for each contract named in `only` (every contract when absent). Throws with solc's messages on errors.
 */
export function compileSolidity(
  sources: Record<string, { content: string }>,
  opts: { importRoots?: string[]; only?: string[]; onWarning?: (m: string) => void } = {},
): Record<string, ContractArtifact> {
  const s = loadSolc();
  if (!s) throw new SolcMissingError('compiling Solidity');
  const findImport = (p: string) => {
    for (const base of opts.importRoots ?? []) {
      const f = path.join(base, p);
      if (existsSync(f)) return { contents: readFileSync(f, 'utf8') };
    }
    return { error: `not found: ${p}` };
  };
  const input = {
    language: 'Solidity',
    sources,
    settings: { ...SOLC_SETTINGS, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(s.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  for (const e of output.errors ?? []) if (e.severity !== 'error') opts.onWarning?.(e.formattedMessage);
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const out: Record<string, ContractArtifact> = {};
  for (const file of Object.values(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(file)) {
      if (opts.only && !opts.only.includes(name)) continue;
      out[name] = { contractName: name, compiler: `solc ${s.version()}`, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  return out;
}

/** The Solidity verifier snarkjs exports for a zkey, named `name` (snarkjs calls every one Groth16Verifier). */
export async function exportVerifierSource(zkey: string, name: string): Promise<string> {
  const template = readFileSync(path.join(ROOT, 'node_modules/snarkjs/templates/verifier_groth16.sol.ejs'), 'utf8');
  // snarkjs (and its curve code) is loaded by the first call: no route needs it to serve
  const snarkjs = await import('snarkjs');
  const sol = (await snarkjs.zKey.exportSolidityVerifier(zkey, { groth16: template })) as string;
  return sol.replace(/contract Groth16Verifier/, `contract ${name}`);
}

export const verifierFiles = (name: string, verifiersDir: string) => ({
  sol: path.join(verifiersDir, `${name}.sol`),
  json: path.join(verifiersDir, `${name}.json`),
});

/**
 * Compiles the verifiers of a circuits directory (`<dir>/verifiers/<Name>.sol`, exported again from the zkeys
 * where missing) into `<dir>/verifiers/<Name>.json`, with the settings and source unit names of
 * `npm run build:contracts`. Returns the files written.
 */
export async function compileVerifiers(circuitsDir: string, verifiersDir = path.join(circuitsDir, 'verifiers')): Promise<string[]> {
  const sources: Record<string, { content: string }> = {};
  for (const c of CIRCUIT_NAMES) {
    const name = VERIFIER_NAMES[c];
    const f = verifierFiles(name, verifiersDir);
    sources[`verifiers/${name}.sol`] = {
      content: existsSync(f.sol) ? readFileSync(f.sol, 'utf8') : await exportVerifierSource(circuitFiles(c, circuitsDir).zkey, name),
    };
  }
  const compiled = compileSolidity(sources, { only: Object.values(VERIFIER_NAMES) });
  mkdirSync(verifiersDir, { recursive: true });
  const written: string[] = [];
  for (const name of Object.values(VERIFIER_NAMES)) {
    const f = verifierFiles(name, verifiersDir).json;
    writeFileSync(f, JSON.stringify(compiled[name], null, 2) + '\n');
    written.push(f);
  }
  return written;
}
