// A JSON-RPC client of a local development chain (hardhat or anvil) that deploys and calls the contract mocks of
// contracts/mocks (their compiled artifacts), pins deployed code at chosen addresses and moves chain time forward.
// The scenarios (scenarios.ts), the ETL export and the tests that drive a local chain use it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeDeployData, encodeFunctionData, parseUnits, toHex, type Abi } from 'viem';

type Hex = `0x${string}`;

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../contracts/mocks/artifacts');

interface Artifact {
  abi: Abi;
  bytecode: `0x${string}`;
}
const artifacts = new Map<string, Artifact>();
export function artifact(name: string): Artifact {
  let a = artifacts.get(name);
  if (!a) {
    a = JSON.parse(readFileSync(path.join(ARTIFACTS, `${name}.json`), 'utf8')) as Artifact;
    artifacts.set(name, a);
  }
  return a;
}

export function chainClient(url: string, opts: { baseFeeGwei?: number } = {}) {
  let id = 0;
  /** the base fee each transaction's block charges (a local chain's own falls to a few wei over empty blocks) */
  let baseFee = opts.baseFeeGwei === undefined ? null : toHex(parseUnits(String(opts.baseFeeGwei), 9));
  async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }
  let transactions = 0;
  async function sendRaw(tx: Record<string, unknown>): Promise<{ contractAddress: string | null; blockNumber: string }> {
    if (baseFee) await rpc('hardhat_setNextBlockBaseFeePerGas', [baseFee]);
    const hash = await rpc<Hex>('eth_sendTransaction', [tx]);
    transactions++;
    const receipt = await rpc<{ status: string; contractAddress: string | null; blockNumber: string }>('eth_getTransactionReceipt', [hash]);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }
  return {
    rpc,
    get transactions() {
      return transactions;
    },
    /** Sets (or, with null, stops setting) the base fee of the blocks of the next transactions. */
    setBaseFee(gwei: number | null) {
      baseFee = gwei === null ? null : toHex(parseUnits(String(gwei), 9));
    },
    async deploy(from: string, name: string, args: unknown[] = []): Promise<string> {
      const a = artifact(name);
      const data = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args });
      const r = await sendRaw({ from, data });
      return r.contractAddress!.toLowerCase();
    },
    async call(from: string, to: string, name: string, fn: string, args: unknown[] = [], value?: bigint) {
      const data = encodeFunctionData({ abi: artifact(name).abi, functionName: fn, args });
      return sendRaw({ from, to, data, ...(value ? { value: toHex(value) } : {}) });
    },
    /** Places a deployed contract's code and first storage slots at `target` (a registry-pinned address). */
    async pinAt(deployed: string, target: string, slots = 8): Promise<string> {
      await rpc('hardhat_setCode', [target, await rpc<string>('eth_getCode', [deployed, 'latest'])]);
      for (let i = 0; i < slots; i++) {
        const v = await rpc<string>('eth_getStorageAt', [deployed, toHex(i), 'latest']);
        if (BigInt(v) !== 0n) await rpc('hardhat_setStorageAt', [target, toHex(i), v]);
      }
      return target.toLowerCase();
    },
    /** Moves chain time forward (the next block carries the new time). */
    async advanceDays(days: number) {
      await rpc('evm_increaseTime', [Math.round(days * 86400)]);
      await rpc('evm_mine', []);
    },
  };
}
