// Builds the zero-knowledge artifacts: compiles the circom circuits (circom2, --O2), runs the Groth16 phase-2
// setup (contribution + beacon) on the committed phase-1 ptau, exports verification keys and Solidity
// verifiers, and writes a sha256 manifest. Everything lands in circuits/build and is committed: a rebuilt zkey
// would no longer match verifiers already deployed, so an existing setup is kept unless --force is given.
//
//   npm run build:circuits              compile + set up what is missing, then check the manifest
//   npm run build:circuits -- --force   redo the phase-2 setup (new keys: redeploy the contracts!)
//   npm run build:circuits -- --ptau    also remake the phase-1 ptau (single-party dev ceremony)
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as snarkjs from 'snarkjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const circuitsDir = path.join(root, 'circuits');
const buildDir = path.join(circuitsDir, 'build');
const ptauDir = path.join(circuitsDir, 'ptau');
export const PTAU_POWER = 10;
const ptauFile = path.join(ptauDir, `pot${PTAU_POWER}_final.ptau`);
/** circuit file name -> Solidity verifier contract name */
export const CIRCUITS: Record<string, string> = { score_threshold: 'ScoreThresholdVerifier', age_over: 'AgeOverVerifier' };
const BEACON = '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20';

const args = new Set(process.argv.slice(2));
const log = (m: string) => console.log(`[build:circuits] ${m}`);

function sha256(file: string) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

async function makePtau() {
  mkdirSync(ptauDir, { recursive: true });
  const tmp = (n: number) => path.join(ptauDir, `pot${PTAU_POWER}_${n}.ptau`);
  log(`phase 1: new accumulator, power ${PTAU_POWER} (single-party development ceremony)`);
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  await snarkjs.powersOfTau.newAccumulator(curve, PTAU_POWER, tmp(0));
  await snarkjs.powersOfTau.contribute(tmp(0), tmp(1), 'credence dev contribution', randomBytes(32).toString('hex'));
  await snarkjs.powersOfTau.beacon(tmp(1), tmp(2), 'credence dev beacon', BEACON, 10);
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
    [path.join(root, 'node_modules/circom2/cli.js'), path.join(circuitsDir, 'src', `${name}.circom`), '--r1cs', '--wasm', '--O2', '-l', path.join(root, 'node_modules'), '-o', out],
    { encoding: 'utf8' },
  );
  const constraints = /non-linear constraints: (\d+)/.exec(stdout)?.[1];
  log(`  ${name}: ${constraints} constraints`);
  // keep only the wasm next to the r1cs: the generated JS helpers are not used
  renameSync(path.join(out, `${name}_js`, `${name}.wasm`), path.join(out, `${name}.wasm`));
  rmSync(path.join(out, `${name}_js`), { recursive: true, force: true });
}

async function setup(name: string) {
  const out = path.join(buildDir, name);
  const r1cs = path.join(out, `${name}.r1cs`);
  const z0 = path.join(out, `${name}_0000.zkey`);
  const z1 = path.join(out, `${name}_0001.zkey`);
  const final = path.join(out, `${name}_final.zkey`);
  log(`phase 2 ${name}: new zkey`);
  await snarkjs.zKey.newZKey(r1cs, ptauFile, z0);
  log(`phase 2 ${name}: contribution`);
  await snarkjs.zKey.contribute(z0, z1, 'credence contribution', randomBytes(32).toString('hex'));
  log(`phase 2 ${name}: beacon`);
  await snarkjs.zKey.beacon(z1, final, 'credence beacon', BEACON, 10);
  rmSync(z0);
  rmSync(z1);
  const vk = await snarkjs.zKey.exportVerificationKey(final);
  writeFileSync(path.join(out, 'verification_key.json'), JSON.stringify(vk, null, 2) + '\n');
  const template = readFileSync(path.join(root, 'node_modules/snarkjs/templates/verifier_groth16.sol.ejs'), 'utf8');
  const sol = await snarkjs.zKey.exportSolidityVerifier(final, { groth16: template });
  // both exported contracts are called Groth16Verifier: give each its own name so they compile together
  const named = sol.replace(/contract Groth16Verifier/, `contract ${CIRCUITS[name]}`);
  mkdirSync(path.join(root, 'contracts/src/verifiers'), { recursive: true });
  writeFileSync(path.join(root, 'contracts/src/verifiers', `${CIRCUITS[name]}.sol`), named);
}

/** Files covered by the manifest, relative to the repository root. */
export function manifestFiles(): string[] {
  const files = [path.relative(root, ptauFile)];
  for (const [name, verifier] of Object.entries(CIRCUITS)) {
    for (const f of [`${name}.r1cs`, `${name}.wasm`, `${name}_final.zkey`, 'verification_key.json']) files.push(`circuits/build/${name}/${f}`);
    files.push(`contracts/src/verifiers/${verifier}.sol`);
  }
  return files;
}

function writeManifest() {
  const files: Record<string, string> = {};
  for (const f of manifestFiles()) files[f] = sha256(path.join(root, f));
  const manifest = { ptauPower: PTAU_POWER, circuits: Object.keys(CIRCUITS), files };
  writeFileSync(path.join(buildDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  log(`manifest: ${Object.keys(files).length} files`);
}

async function main() {
  const force = args.has('--force');
  if (args.has('--ptau') || !existsSync(ptauFile)) await makePtau();
  mkdirSync(buildDir, { recursive: true });
  for (const name of Object.keys(CIRCUITS)) {
    const final = path.join(buildDir, name, `${name}_final.zkey`);
    if (existsSync(final) && !force) {
      log(`${name}: keys present (use --force to redo the setup)`);
      continue;
    }
    rmSync(path.join(buildDir, name), { recursive: true, force: true });
    compile(name);
    await setup(name);
  }
  writeManifest();
  // the curve's worker threads must be stopped for the process to exit
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
}

await main();
