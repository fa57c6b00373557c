// `credence proof verify <file>`: checks a Credence proof offline with the SDK's verifyProofOffline. The file
// holds the ABI hex (alone, or as the `proof` of a /reputation/prove answer) or snarkjs's `{proof,
// publicSignals}`. The verification keys come from --keys, else from the service once (kept in the config
// directory, so later verifications need no network).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCredenceClient, releaseProofVerifier, unwrap, verifyProofOffline, type SnarkjsProof, type VerificationKeys } from './sdk.js';
import { CliError, apiUrlOf, configDir } from './session.js';

type Input = string | { proof: SnarkjsProof; publicSignals: string[]; proofType?: string };

/** What the file holds, in a form verifyProofOffline takes (null when it is none of the accepted forms). */
function readProof(file: string): Input | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`, 2);
  }
  if (/^"?0x[0-9a-fA-F]+"?$/.test(text)) return text.replace(/"/g, '');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const o = v as { proof?: unknown; publicSignals?: unknown; proofType?: unknown; snarkjs?: unknown };
  if (typeof o.proof === 'string') return o.proof;
  if (o.proof && typeof o.proof === 'object' && Array.isArray(o.publicSignals)) {
    return {
      proof: o.proof as SnarkjsProof,
      publicSignals: o.publicSignals as string[],
      ...(typeof o.proofType === 'string' ? { proofType: o.proofType } : {}),
    };
  }
  if (o.snarkjs && typeof o.snarkjs === 'object') return readNested(o.snarkjs, o.proofType);
  return null;
}
function readNested(s: object, proofType: unknown): Input | null {
  const x = s as { proof?: SnarkjsProof; publicSignals?: string[] };
  return x.proof && Array.isArray(x.publicSignals)
    ? { proof: x.proof, publicSignals: x.publicSignals, ...(typeof proofType === 'string' ? { proofType } : {}) }
    : null;
}

async function keysFor(flags: Record<string, unknown>): Promise<VerificationKeys> {
  if (typeof flags.keys === 'string') {
    try {
      return JSON.parse(readFileSync(flags.keys, 'utf8')) as VerificationKeys;
    } catch (e) {
      throw new CliError(`--keys: ${(e as Error).message}`, 2);
    }
  }
  const apiUrl = apiUrlOf(flags['api-url']);
  const cache = path.join(configDir(), 'verification-keys', `${encodeURIComponent(apiUrl)}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as VerificationKeys;
  const keys = await unwrap(createCredenceClient({ baseUrl: apiUrl, timeoutMs: 20_000 }).GET('/api/v1/proofs/verification-keys'));
  mkdirSync(path.dirname(cache), { recursive: true, mode: 0o700 });
  writeFileSync(cache, JSON.stringify(keys));
  return keys;
}

export async function runProofVerify(flags: Record<string, unknown>, positionals: string[]) {
  const input = readProof(positionals[0]);
  if (input === null)
    throw new CliError(
      `${positionals[0]}: not a proof (expected the ABI hex, a prove answer {proof: "0x..."}, or snarkjs {proof, publicSignals})`,
      2,
    );
  const keys = await keysFor(flags);
  const circuits = (keys as { circuits: { proofTypes: string[] }[] }).circuits;
  try {
    let r: Awaited<ReturnType<typeof verifyProofOffline>>;
    if (typeof input !== 'string' && !input.proofType) {
      // snarkjs's form does not say which circuit: the proof is valid under one of the published keys or none
      r = {
        valid: false,
        proofType: null,
        subject: null,
        validUntil: null,
        publicSignals: input.publicSignals,
        reason: 'valid under no published verification key',
      };
      for (const t of [...new Set(circuits.flatMap((c) => c.proofTypes))]) {
        // another circuit's key does not fit the signals: snarkjs may throw rather than answer false
        const x = await verifyProofOffline({ ...input, proofType: t }, keys).catch(() => null);
        if (!x) continue;
        if (x.valid) {
          r = x;
          break;
        }
        if (x.reason?.startsWith('expired')) r = x;
      }
    } else r = await verifyProofOffline(input, keys);
    if (flags.json) console.log(JSON.stringify(r, null, 2));
    else if (r.valid)
      console.log(`valid: ${r.proofType} proof about ${r.subject}, accepted until ${new Date((r.validUntil ?? 0) * 1000).toISOString()}`);
    else console.log(`INVALID: ${r.reason ?? 'the Groth16 check failed'}${r.proofType ? ` (${r.proofType})` : ''}`);
    process.exitCode = r.valid ? 0 : 1;
  } finally {
    await releaseProofVerifier();
  }
}
