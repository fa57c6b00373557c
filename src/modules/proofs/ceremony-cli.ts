// `credence ceremony <init|contribute|beacon|verify|finalize>`: the multi-party trusted setup of the circuit keys
// (see ceremony.ts and docs/proofs.md). `contribute` needs nothing but the ceremony directory, so each party can
// run it on its own machine: receive the directory, contribute, send it on.
import path from 'node:path';
import * as snarkjs from 'snarkjs';
import { BUILD_DIR } from './artifacts.js';
import { ceremonyBeacon, ceremonyContribute, ceremonyFinalize, ceremonyInit, ceremonyVerify } from './ceremony.js';

const USAGE = `usage:
  credence ceremony init       --dir <dir> --ptau <public ceremony .ptau> [--min-contributions N (default 10)]
  credence ceremony contribute --dir <dir> --name <your name> [--entropy <text>]
  credence ceremony beacon     --dir <dir> --hash <32-byte hex> [--iterations N (default 10)]
  credence ceremony verify     --dir <dir> --ptau <ptau>
  credence ceremony finalize   --dir <dir> --ptau <ptau> [--out <dir> (default circuits/build)] [--min-contributors N (default 2)]`;

class UsageError extends Error {}

function opt(args: string[], flag: string, required = true): string | undefined {
  const i = args.indexOf(flag);
  const v = i >= 0 ? args[i + 1] : undefined;
  if (required && (v === undefined || v.startsWith('--'))) throw new UsageError(`${flag} is required`);
  return v;
}
function int(args: string[], flag: string, def: number): number {
  const v = opt(args, flag, false);
  if (v === undefined) return def;
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag} must be a whole number`);
  return Number(v);
}

export async function runCeremonyCommand(args: string[]): Promise<void> {
  const log = (m: string) => console.log(`[ceremony] ${m}`);
  try {
    const dir = () => path.resolve(opt(args, '--dir')!);
    switch (args[0]) {
      case 'init':
        await ceremonyInit({ dir: dir(), ptau: opt(args, '--ptau')!, minContributions: int(args, '--min-contributions', 10), log });
        log(`ready: send ${dir()} to the first contributor`);
        break;
      case 'contribute': {
        const step = await ceremonyContribute({ dir: dir(), name: opt(args, '--name')!, entropy: opt(args, '--entropy', false), log });
        log(`contribution #${step.index} recorded in transcript.json: send the directory on; publish your contribution hashes`);
        break;
      }
      case 'beacon':
        await ceremonyBeacon({ dir: dir(), hash: opt(args, '--hash')!, iterations: int(args, '--iterations', 10), log });
        break;
      case 'verify':
        await ceremonyVerify({ dir: dir(), ptau: opt(args, '--ptau')!, log });
        break;
      case 'finalize': {
        const out = path.resolve(opt(args, '--out', false) ?? BUILD_DIR);
        // the committed artifacts' verifiers are compiled from contracts/src/verifiers
        const verifiersDir = out === BUILD_DIR ? path.resolve(BUILD_DIR, '../../contracts/src/verifiers') : undefined;
        const rec = await ceremonyFinalize({
          dir: dir(),
          ptau: opt(args, '--ptau')!,
          out,
          minContributors: int(args, '--min-contributors', 2),
          verifiersDir,
          log,
        });
        log(`${rec.label}: artifacts in ${out}`);
        log(
          out === BUILD_DIR
            ? 'next: npm run build:contracts, then credence contracts deploy'
            : `next: credence contracts deploy --circuits ${out} (deploys ${path.join(out, 'verifiers')}), then serve with CREDENCE_CIRCUITS_DIR=${out}`,
        );
        break;
      }
      default:
        throw new UsageError(args[0] ? `unknown subcommand ${args[0]}` : 'a subcommand is required');
    }
  } catch (e) {
    console.error(e instanceof UsageError ? `${e.message}\n${USAGE}` : `credence ceremony: ${(e as Error).message}`);
    process.exitCode = 2;
  } finally {
    // snarkjs' curve keeps worker threads alive
    await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
  }
}
