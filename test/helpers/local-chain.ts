// An in-process Hardhat 2 network served over JSON-RPC HTTP on a loopback port, so code under test reads it
// exactly as it reads mainnet. Used by the ingestion tests, the demo and the proofs helper.
import { createRequire } from 'node:module';
import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const require = createRequire(import.meta.url);

export interface LocalChain {
  url: string;
  chainId: number;
  /** The funded accounts the node signs for (eth_sendTransaction), lowercase. */
  accounts: string[];
  /** Raw EIP-1193 request into the node (no HTTP hop), for test setup such as evm_increaseTime. */
  request(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

export interface LocalChainOptions {
  /** Defaults to 1, so ingestion can read it as Ethereum mainnet. */
  chainId?: number;
  /** Number of funded accounts (10,000 ETH each). */
  accounts?: number;
  /** Genesis block time. */
  initialDate?: Date;
  /** JSON-RPC port on 127.0.0.1 (default: a free one) */
  port?: number;
}

export async function startLocalChain(opts: LocalChainOptions = {}): Promise<LocalChain> {
  const chainId = opts.chainId ?? 1;
  const { resolveConfig } = require('hardhat/internal/core/config/config-resolution');
  const { createProvider } = require('hardhat/internal/core/providers/construction');
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server');
  const root = mkdtempSync(path.join(tmpdir(), 'credence-chain-'));
  // Hardhat resolves its project paths from a config file that must exist; ours is empty (settings are passed here).
  const configPath = path.join(root, 'hardhat.config.js');
  writeFileSync(configPath, 'module.exports = {};\n');
  const config = resolveConfig(configPath, {
    networks: {
      hardhat: {
        chainId,
        accounts: { count: opts.accounts ?? 20 },
        loggingEnabled: false,
        ...(opts.initialDate ? { initialDate: opts.initialDate.toISOString() } : {}),
      },
    },
  });
  const provider = await createProvider(config, 'hardhat');
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: opts.port ?? 0, provider });
  const { address, port } = await server.listen();
  const request = (method: string, params: unknown[] = []) => provider.request({ method, params }) as Promise<unknown>;
  const accounts = ((await request('eth_accounts')) as string[]).map((a) => a.toLowerCase());
  return {
    url: `http://${address}:${port}`,
    chainId,
    accounts,
    request,
    async stop() {
      await server.close();
    },
  };
}
