// The pools of the unread clone factories (Aerodrome, Velodrome V2: registry/index.ts unreadCloneFactories): apart
// from the registry so that viem, which derives them, loads only when coverage looks for one.
import { encodePacked, getContractAddress, keccak256 } from 'viem';
import { lc } from './builder.js';

/** Whether `pool` is the pool an unread clone factory deploys for this token pair (stable or volatile). */
export function isClonePool(f: { factory: string; implementation: string }, pool: string, tokenA: string, tokenB: string): boolean {
  const [a, b] = [lc(tokenA), lc(tokenB)];
  if (a === b || !/^0x[0-9a-f]{40}$/.test(a) || !/^0x[0-9a-f]{40}$/.test(b)) return false;
  const [t0, t1] = a < b ? [a, b] : [b, a];
  // OpenZeppelin Clones: the EIP-1167 proxy's creation code around the implementation
  const bytecode = `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${f.implementation.slice(2)}5af43d82803e903d91602b57fd5bf3` as const;
  return [false, true].some(
    (stable) =>
      lc(
        getContractAddress({
          opcode: 'CREATE2',
          from: f.factory as `0x${string}`,
          salt: keccak256(encodePacked(['address', 'address', 'bool'], [t0 as `0x${string}`, t1 as `0x${string}`, stable])),
          bytecode,
        }),
      ) === lc(pool),
  );
}
