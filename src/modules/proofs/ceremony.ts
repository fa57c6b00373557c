// The Groth16 trusted setup as a multi-party ceremony, on a phase-1 powers-of-tau file from a public ceremony:
//   init       check the ptau (snarkjs powersoftau verify, enough contributions), make each circuit's first zkey
//   contribute one party adds its secret randomness (needs only the ceremony directory: run it anywhere)
//   beacon     public randomness applied last (e.g. a future block hash announced in advance)
//   verify     every zkey against the r1cs and the ptau (snarkjs zkey verify), and the transcript's hashes
//   finalize   the verified keys, verification keys, Solidity verifiers (compiled too, for `credence contracts
//              deploy --circuits <out>`), setup.json and manifest.json
// One party honest (its randomness destroyed) in each phase is enough for nobody to be able to forge proofs.
// The ceremony directory holds transcript.json (every step, with the sha256 of each zkey it produced and the
// contribution hash the contributor saw), each circuit's r1cs and wasm, and its latest zkey.
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import * as snarkjs from 'snarkjs';
import { BUILD_DIR, CIRCUIT_NAMES, VERIFIER_NAMES, circuitFiles, type CircuitName, type SetupRecord } from './artifacts.js';
import { ptauContributions, zkeyContributions, type Contribution } from './setup-info.js';
import { compileVerifiers, exportVerifierSource, loadSolc } from './solidity.js';

export interface TranscriptStep {
  index: number;
  kind: 'init' | 'contribution' | 'beacon';
  name: string;
  at: string;
  /** per circuit: sha256 of the zkey this step produced, and the contribution hash snarkjs printed for it */
  zkeys: Record<string, { sha256: string; contributionHash?: string }>;
  beacon?: { hash: string; iterations: number };
}

export interface Transcript {
  version: 1;
  ptau: { file: string; sha256: string; power: number; contributions: Contribution[] };
  circuits: Record<string, { r1cs: string; wasm: string }>;
  steps: TranscriptStep[];
}

type Log = (m: string) => void;
const sha256File = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
const transcriptFile = (dir: string) => path.join(dir, 'transcript.json');
const zkeyFile = (dir: string, c: string, i: number) => path.join(dir, c, `${c}_${String(i).padStart(4, '0')}.zkey`);
const hex = (b: Uint8Array | string) => (typeof b === 'string' ? b : Buffer.from(b).toString('hex'));

export function readTranscript(dir: string): Transcript {
  if (!existsSync(transcriptFile(dir))) throw new Error(`${dir} is not a ceremony directory (no transcript.json)`);
  return JSON.parse(readFileSync(transcriptFile(dir), 'utf8'));
}
const writeTranscript = (dir: string, t: Transcript) => writeFileSync(transcriptFile(dir), JSON.stringify(t, null, 2) + '\n');

/** The power of a ptau file: section 1 holds n8, the field modulus (n8 bytes), then the power. */
function ptauPower(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4096);
    readSync(fd, b, 0, 4096, 0);
    let pos = 12;
    for (let i = 0; i < b.readUInt32LE(8); i++) {
      const type = b.readUInt32LE(pos);
      const size = Number(b.readBigUInt64LE(pos + 4));
      if (type === 1) {
        const n8 = b.readUInt32LE(pos + 12);
        return b.readUInt32LE(pos + 16 + n8);
      }
      pos += 12 + size;
    }
  } finally {
    closeSync(fd);
  }
  throw new Error(`${file}: no header section`);
}

/** The latest zkey of each circuit, checked against the transcript's last step (what this party received). */
function latest(dir: string, t: Transcript): Record<string, string> {
  const last = t.steps.at(-1)!;
  const out: Record<string, string> = {};
  for (const c of Object.keys(t.circuits)) {
    const f = zkeyFile(dir, c, last.index);
    if (!existsSync(f)) throw new Error(`${f} is missing`);
    if (sha256File(f) !== last.zkeys[c].sha256) throw new Error(`${f} is not the zkey the transcript names for step ${last.index}`);
    out[c] = f;
  }
  return out;
}

export async function ceremonyInit(opts: {
  dir: string;
  ptau: string;
  minContributions: number;
  from?: string;
  log?: Log;
}): Promise<Transcript> {
  const log = opts.log ?? (() => undefined);
  if (existsSync(transcriptFile(opts.dir))) throw new Error(`${opts.dir} already holds a ceremony`);
  const contributions = ptauContributions(opts.ptau);
  const parties = contributions.filter((c) => !c.beacon).length;
  log(`phase 1: ${path.basename(opts.ptau)}, ${parties} contribution(s)${contributions.some((c) => c.beacon) ? ' and a beacon' : ''}`);
  if (parties < opts.minContributions)
    throw new Error(`the ptau has ${parties} contribution(s), fewer than the ${opts.minContributions} required`);
  log('phase 1: snarkjs powersoftau verify ...');
  if (!(await snarkjs.powersOfTau.verify(opts.ptau))) throw new Error(`snarkjs powersoftau verify refused ${opts.ptau}`);
  const t: Transcript = {
    version: 1,
    ptau: { file: path.basename(opts.ptau), sha256: sha256File(opts.ptau), power: ptauPower(opts.ptau), contributions },
    circuits: {},
    steps: [],
  };
  const step: TranscriptStep = { index: 0, kind: 'init', name: 'init', at: new Date().toISOString(), zkeys: {} };
  for (const c of CIRCUIT_NAMES) {
    const src = circuitFiles(c, opts.from ?? BUILD_DIR);
    mkdirSync(path.join(opts.dir, c), { recursive: true });
    const r1cs = path.join(opts.dir, c, `${c}.r1cs`);
    const wasm = path.join(opts.dir, c, `${c}.wasm`);
    copyFileSync(src.r1cs, r1cs);
    copyFileSync(src.wasm, wasm);
    t.circuits[c] = { r1cs: sha256File(r1cs), wasm: sha256File(wasm) };
    log(`phase 2 ${c}: initial zkey`);
    await snarkjs.zKey.newZKey(r1cs, opts.ptau, zkeyFile(opts.dir, c, 0));
    step.zkeys[c] = { sha256: sha256File(zkeyFile(opts.dir, c, 0)) };
  }
  t.steps.push(step);
  writeTranscript(opts.dir, t);
  return t;
}

/** Adds one party's contribution. Entropy: 64 random bytes from the OS, plus whatever the party types in. */
export async function ceremonyContribute(opts: { dir: string; name: string; entropy?: string; log?: Log }): Promise<TranscriptStep> {
  const log = opts.log ?? (() => undefined);
  const t = readTranscript(opts.dir);
  if (t.steps.some((s) => s.kind === 'beacon')) throw new Error('the beacon was applied: the ceremony takes no more contributions');
  if (!/^[\x20-\x7e]{1,64}$/.test(opts.name)) throw new Error('the contributor name must be 1-64 printable ASCII characters');
  const prev = latest(opts.dir, t);
  const index = t.steps.at(-1)!.index + 1;
  const step: TranscriptStep = { index, kind: 'contribution', name: opts.name, at: new Date().toISOString(), zkeys: {} };
  for (const [c, f] of Object.entries(prev)) {
    const entropy = randomBytes(64).toString('hex') + (opts.entropy ?? '');
    const out = zkeyFile(opts.dir, c, index);
    const h = await snarkjs.zKey.contribute(f, out, opts.name, entropy);
    step.zkeys[c] = { sha256: sha256File(out), contributionHash: hex(h) };
    log(`${c}: contribution hash ${hex(h)}`);
  }
  t.steps.push(step);
  writeTranscript(opts.dir, t);
  for (const f of Object.values(prev)) rmSync(f);
  return step;
}

/** Applies the public random beacon (hex, e.g. the hash of a block announced before the ceremony began). */
export async function ceremonyBeacon(opts: { dir: string; hash: string; iterations?: number; log?: Log }): Promise<TranscriptStep> {
  const log = opts.log ?? (() => undefined);
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(opts.hash)) throw new Error('the beacon must be 32 bytes of hex');
  const hash = opts.hash.replace(/^0x/, '').toLowerCase();
  const iterations = opts.iterations ?? 10;
  const t = readTranscript(opts.dir);
  if (t.steps.some((s) => s.kind === 'beacon')) throw new Error('the beacon was already applied');
  const prev = latest(opts.dir, t);
  const index = t.steps.at(-1)!.index + 1;
  const step: TranscriptStep = {
    index,
    kind: 'beacon',
    name: 'beacon',
    at: new Date().toISOString(),
    zkeys: {},
    beacon: { hash, iterations },
  };
  for (const [c, f] of Object.entries(prev)) {
    const out = zkeyFile(opts.dir, c, index);
    const h = (await snarkjs.zKey.beacon(f, out, 'beacon', hash, iterations)) as Uint8Array | string;
    step.zkeys[c] = { sha256: sha256File(out), contributionHash: hex(h) };
    log(`${c}: beacon applied`);
  }
  t.steps.push(step);
  writeTranscript(opts.dir, t);
  for (const f of Object.values(prev)) rmSync(f);
  return step;
}

/** Checks the ceremony: the ptau is the one it began on, r1cs/wasm unchanged, every latest zkey the transcript's and
 *  accepted by snarkjs zkey verify (r1cs + ptau), with one contribution in it per transcript step. */
export async function ceremonyVerify(opts: { dir: string; ptau: string; log?: Log }): Promise<Transcript> {
  const log = opts.log ?? (() => undefined);
  const t = readTranscript(opts.dir);
  if (sha256File(opts.ptau) !== t.ptau.sha256) throw new Error(`${opts.ptau} is not the ptau the ceremony began on`);
  const zkeys = latest(opts.dir, t);
  const steps = t.steps.filter((s) => s.kind !== 'init');
  for (const [c, f] of Object.entries(zkeys)) {
    for (const [k, sum] of Object.entries(t.circuits[c])) {
      if (sha256File(path.join(opts.dir, c, `${c}.${k}`)) !== sum)
        throw new Error(`${c}.${k} differs from the one the ceremony began with`);
    }
    const inFile = zkeyContributions(f);
    if (inFile.length !== steps.length || inFile.some((x, i) => x.name !== steps[i].name || x.beacon !== (steps[i].kind === 'beacon'))) {
      throw new Error(`${c}: the zkey's contributions do not match the transcript`);
    }
    log(`${c}: snarkjs zkey verify ...`);
    if (!(await snarkjs.zKey.verifyFromR1cs(path.join(opts.dir, c, `${c}.r1cs`), opts.ptau, f)))
      throw new Error(`snarkjs zkey verify refused ${f}`);
  }
  log(
    `verified: ${steps.filter((s) => s.kind === 'contribution').length} contribution(s)${steps.some((s) => s.kind === 'beacon') ? ' and a beacon' : ''}`,
  );
  return t;
}

/**
 * Verifies, then writes the artifacts the service uses into `out`: per circuit r1cs, wasm, <c>_final.zkey and
 * verification_key.json; the Solidity verifiers (into `verifiersDir`, default `out/verifiers`); setup.json (kind,
 * label, the ptau record and the whole transcript) and manifest.json (sha256 of every file, relative to `out`).
 * Into the default `out/verifiers` it also writes the verifiers compiled with solc-js (<Verifier>.json, the
 * settings of npm run build:contracts), which `credence contracts deploy --circuits <out>` deploys without a
 * compiler; where solc (a devDependency) is not installed it says how to compile them later. (With `verifiersDir`
 * given, e.g. contracts/src/verifiers for the committed build, npm run build:contracts compiles them.)
 */
export async function ceremonyFinalize(opts: {
  dir: string;
  ptau: string;
  out: string;
  minContributors?: number;
  requireBeacon?: boolean;
  kind?: 'dev' | 'ceremony';
  label?: string;
  verifiersDir?: string;
  log?: Log;
}): Promise<SetupRecord> {
  const log = opts.log ?? (() => undefined);
  const t = await ceremonyVerify(opts);
  const parties = t.steps.filter((s) => s.kind === 'contribution');
  if (parties.length < (opts.minContributors ?? 2))
    throw new Error(`${parties.length} contribution(s), fewer than the ${opts.minContributors ?? 2} required`);
  if ((opts.requireBeacon ?? true) && !t.steps.some((s) => s.kind === 'beacon'))
    throw new Error('apply the beacon first (credence ceremony beacon)');
  const zkeys = latest(opts.dir, t);
  const verifiersDir = opts.verifiersDir ?? path.join(opts.out, 'verifiers');
  mkdirSync(verifiersDir, { recursive: true });
  const files: string[] = [];
  for (const c of Object.keys(t.circuits) as CircuitName[]) {
    const f = circuitFiles(c, opts.out);
    mkdirSync(path.dirname(f.zkey), { recursive: true });
    if (path.resolve(opts.dir) !== path.resolve(opts.out)) {
      copyFileSync(path.join(opts.dir, c, `${c}.r1cs`), f.r1cs);
      copyFileSync(path.join(opts.dir, c, `${c}.wasm`), f.wasm);
    }
    copyFileSync(zkeys[c], f.zkey);
    const vk = await snarkjs.zKey.exportVerificationKey(f.zkey);
    writeFileSync(f.vkey, JSON.stringify(vk, null, 2) + '\n');
    const sol = await exportVerifierSource(f.zkey, VERIFIER_NAMES[c]);
    const solFile = path.join(verifiersDir, `${VERIFIER_NAMES[c]}.sol`);
    writeFileSync(solFile, sol);
    files.push(f.r1cs, f.wasm, f.zkey, f.vkey, solFile);
    log(`${c}: final zkey, verification key, ${VERIFIER_NAMES[c]}.sol`);
  }
  if (!opts.verifiersDir) {
    // stale compiled verifiers of earlier keys must never be deployed with these
    for (const name of Object.values(VERIFIER_NAMES)) rmSync(path.join(verifiersDir, `${name}.json`), { force: true });
    if (loadSolc()) {
      files.push(...(await compileVerifiers(opts.out, verifiersDir)));
      log(`verifiers compiled into ${verifiersDir} (for credence contracts deploy --circuits ${opts.out})`);
    } else {
      log(
        `solc is not installed here: compile the verifiers in a source checkout (npm run build:contracts -- --circuits ${opts.out}) before credence contracts deploy`,
      );
    }
  }
  files.push(path.resolve(opts.ptau));
  const record: SetupRecord = {
    kind: opts.kind ?? 'ceremony',
    label: opts.label ?? `ceremony: ${parties.map((p) => p.name).join(', ')}`,
    ptau: t.ptau,
    transcript: t,
  };
  writeFileSync(path.join(opts.out, 'setup.json'), JSON.stringify(record, null, 2) + '\n');
  const manifest = {
    ptauPower: t.ptau.power,
    circuits: Object.keys(t.circuits),
    files: Object.fromEntries(files.map((f) => [path.relative(opts.out, f), sha256File(f)])),
  };
  writeFileSync(path.join(opts.out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return record;
}
