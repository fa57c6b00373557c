// Builds ethereum-etl exports (JSON lines: blocks, transactions, logs) of made-up histories, with events encoded
// from their real signatures and emitted at whatever address a test names (the real pinned contracts, or an
// attacker's). One transaction per block; the block's time is the transaction's.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeAbiParameters, encodeEventTopics, getContractAddress, keccak256, pad, parseAbiItem, toHex, type AbiEvent } from 'viem';

export interface EtlLog {
  address: string;
  /** a Solidity event signature, e.g. 'event Transfer(address indexed from, address indexed to, uint256 value)' */
  event: string;
  args: Record<string, unknown>;
}

export const SIGS = {
  transfer: 'event Transfer(address indexed from, address indexed to, uint256 value)',
  nftTransfer: 'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  v3Swap:
    'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  v2Swap:
    'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  v2Mint: 'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  voteCast: 'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
  delegateChanged: 'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
  delegateVotesChanged: 'event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)',
} as const;

export function encodeLog(event: string, args: Record<string, unknown>): { topics: string[]; data: string } {
  const abi = parseAbiItem(event) as AbiEvent;
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: args as never }) as string[];
  const plain = abi.inputs.filter((i) => !i.indexed);
  return {
    topics,
    data: plain.length
      ? encodeAbiParameters(
          plain,
          plain.map((i) => args[i.name!]),
        )
      : '0x',
  };
}

export interface EtlTx {
  from: string;
  /** null: a contract creation */
  to: string | null;
  at: Date;
  value?: bigint;
  logs?: EtlLog[];
  /** in the previous transaction's block (several transactions per block: just-in-time liquidity) */
  sameBlock?: boolean;
}

/** Receipts' gas for every transaction of an export (exports without it carry no receipt gas, as before) */
export interface EtlGas {
  gasUsed: bigint;
  /** effective gas price, wei */
  priceWei: bigint;
}

export class EtlExport {
  private block: number;
  private nonces = new Map<string, number>();
  private logBase = 0;
  readonly blocks: string[] = [];
  readonly txs: string[] = [];
  readonly logs: string[] = [];

  constructor(
    firstBlock = 19_000_000,
    private readonly gas?: EtlGas,
  ) {
    this.block = firstBlock;
  }

  /** USD of one transaction's gas at a coin price (what an export with receipts charges each transaction) */
  gasUsd(coinUsd: number): number {
    return this.gas ? (Number(this.gas.gasUsed * this.gas.priceWei) / 1e18) * coinUsd : 0;
  }

  /** Adds one transaction (and its logs) in a block of its own; returns its hash and, for a creation, the contract. */
  tx(t: EtlTx): { hash: string; created: string | null } {
    const block = t.sameBlock ? this.block : ++this.block;
    if (!t.sameBlock) this.logBase = 0;
    const first = this.logBase;
    this.logBase += t.logs?.length ?? 0;
    const ts = Math.floor(t.at.getTime() / 1000);
    const from = t.from.toLowerCase();
    const nonce = this.nonces.get(from) ?? 0;
    this.nonces.set(from, nonce + 1);
    const hash = keccak256(toHex(`${from}:${nonce}:${block}`));
    const created = t.to === null ? getContractAddress({ from: from as `0x${string}`, nonce: BigInt(nonce) }).toLowerCase() : null;
    const blockHash = keccak256(toHex(block));
    if (!t.sameBlock)
      this.blocks.push(JSON.stringify({ type: 'block', number: block, hash: blockHash, timestamp: ts, transaction_count: 1 }));
    const receipt = this.gas ? { receipt_gas_used: Number(this.gas.gasUsed), receipt_effective_gas_price: Number(this.gas.priceWei) } : {};
    this.txs.push(
      JSON.stringify({
        type: 'transaction',
        hash,
        nonce,
        transaction_index: 0,
        from_address: from,
        to_address: t.to?.toLowerCase() ?? null,
        value: (t.value ?? 0n).toString(),
        gas: 300000,
        gas_price: this.gas ? Number(this.gas.priceWei) : 1e9,
        input: '0x',
        block_timestamp: ts,
        block_number: block,
        block_hash: blockHash,
        receipt_status: 1,
        receipt_contract_address: created,
        ...receipt,
      }),
    );
    (t.logs ?? []).forEach((l, i) => {
      const { topics, data } = encodeLog(l.event, l.args);
      this.logs.push(
        JSON.stringify({
          type: 'log',
          log_index: first + i,
          transaction_hash: hash,
          transaction_index: 0,
          address: l.address.toLowerCase(),
          data,
          topics,
          block_number: block,
          block_timestamp: ts,
          block_hash: blockHash,
        }),
      );
    });
    return { hash, created };
  }

  /** Writes the export to a new directory and returns it. */
  write(prefix = 'credence-etl-'): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    writeFileSync(path.join(dir, 'blocks.json'), this.blocks.join('\n') + '\n');
    writeFileSync(path.join(dir, 'transactions.json'), this.txs.join('\n') + '\n');
    writeFileSync(path.join(dir, 'logs.json'), (this.logs.length ? this.logs.join('\n') : '') + '\n');
    return dir;
  }
}

export const topicOf = (address: string) => pad(address.toLowerCase() as `0x${string}`);
