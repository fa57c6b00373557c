// Builds the DEVELOPMENT zero-knowledge artifacts: compiles the circom circuits (circom2, --O2) and runs a
// single-party Groth16 setup on the committed phase-1 ptau, through the same code as `credence ceremony` (init,
// one contribution, a random beacon, finalize): final zkeys, verification keys, Solidity verifiers, setup.json
// (kind "dev") and the sha256 manifest, all in circuits/build and committed. Whoever runs it could forge proofs:
// these keys serve tests and the demo; the service refuses to publish commitments to a public chain with them.
// Production keys come from `credence ceremony` (see docs/proofs.md). A rebuilt zkey would no longer match
// verifiers already deployed, so an existing setup is kept unless --force is given.
//
//   npm run build:circuits              compile + set up what is missing
//   npm run build:circuits -- --force   redo the setup (new keys: rebuild and redeploy the contracts!)
//   npm run build:circuits -- --ptau    also remake the phase-1 ptau (single-party dev ceremony)
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as snarkjs from 'snarkjs';
import { CIRCUIT_NAMES, VERIFIER_NAMES } from '../src/modules/proofs/artifacts.js';
import { ceremonyBeacon, ceremonyContribute, ceremonyFinalize, ceremonyInit } from '../src/modules/proofs/ceremony.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const circuitsDir = path.join(root, 'circuits');
const buildDir = path.join(circuitsDir, 'build');
const ptauDir = path.join(circuitsDir, 'ptau');
export const PTAU_POWER = 10;
const ptauFile = path.join(ptauDir, `pot${PTAU_POWER}_final.ptau`);
/** circuit file name -> Solidity verifier contract name */
export const CIRCUITS: Record<string, string> = VERIFIER_NAMES;

const args = new Set(process.argv.slice(2));
const log = (m: string) => console.log(`[build:circuits] ${m}`);

async function makePtau() {
  mkdirSync(ptauDir, { recursive: true });
  const tmp = (n: number) => path.join(ptauDir, `pot${PTAU_POWER}_${n}.ptau`);
  log(`phase 1: new accumulator, power ${PTAU_POWER} (single-party development ceremony)`);
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  await snarkjs.powersOfTau.newAccumulator(curve, PTAU_POWER, tmp(0));
  await snarkjs.powersOfTau.contribute(tmp(0), tmp(1), 'credence dev contribution', randomBytes(32).toString('hex'));
  await snarkjs.powersOfTau.beacon(tmp(1), tmp(2), 'credence dev beacon', randomBytes(32).toString('hex'), 10);
  log('phase 1: prepare phase 2');
  await snarkjs.powersOfTau.preparePhase2(tmp(2), ptauFile);
  for (const n of [0, 1, 2]) rmSync(tmp(n), { force: true });
}

function compile(name: string) {
  const out = path.join(buildDir, name);
  mkdirSync(out, { recursive: true });
  log(`compile ${name} (--O2)`);
  const stdout = execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/circom2/cli.js'),
      path.join(circuitsDir, 'src', `${name}.circom`),
      '--r1cs',
      '--wasm',
      '--O2',
      '-l',
      path.join(root, 'node_modules'),
      '-o',
      out,
    ],
    { encoding: 'utf8' },
  );
  const constraints = /non-linear constraints: (\d+)/.exec(stdout)?.[1];
  log(`  ${name}: ${constraints} constraints`);
  // keep only the wasm next to the r1cs: the generated JS helpers are not used
  renameSync(path.join(out, `${name}_js`, `${name}.wasm`), path.join(out, `${name}.wasm`));
  rmSync(path.join(out, `${name}_js`), { recursive: true, force: true });
}

async function main() {
  const force = args.has('--force');
  if (args.has('--ptau') || !existsSync(ptauFile)) await makePtau();
  const present = CIRCUIT_NAMES.every((n) => existsSync(path.join(buildDir, n, `${n}_final.zkey`)));
  if (present && !force) {
    log('keys present (use --force to redo the setup)');
  } else {
    for (const name of CIRCUIT_NAMES) {
      rmSync(path.join(buildDir, name), { recursive: true, force: true });
      compile(name);
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-dev-setup-'));
    try {
      await ceremonyInit({ dir, ptau: ptauFile, minContributions: 1, log });
      await ceremonyContribute({ dir, name: 'credence dev contribution', log });
      await ceremonyBeacon({ dir, hash: randomBytes(32).toString('hex'), log });
      await ceremonyFinalize({
        dir,
        ptau: ptauFile,
        out: buildDir,
        minContributors: 1,
        kind: 'dev',
        label: 'development setup (single party, not for public chains): tests and demo only',
        verifiersDir: path.join(root, 'contracts/src/verifiers'),
        log,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    log('done: now npm run build:contracts');
  }
  // the curve's worker threads must be stopped for the process to exit
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
}

await main();
