// Decodes one log (from eth_getLogs, an ethereum-etl export or an explorer) into normalized activity records, one
// per wallet the log concerns. Wallets come only from indexed topics, so a wallet's records are the same whether
// the log was found by a topic filter over JSON-RPC or read from a full export.
// Every source goes through here, so this is where the registry is enforced: a protocol event whose emitter is not
// pinned (or a swap in a pool that does not derive from the factory) yields nothing and is counted in ctx.dropped;
// registry contracts and verified pools are never wallets; amounts are valued in USD where a price is known.
// Each protocol family's events are decoded in decode/<family>.ts; this file gates, decodes the ABI and dispatches.
import { decodeEventLog } from 'viem';
import { EVENTS_BY_TOPIC, type EventDef, type EventName } from './events.js';
import { evidenceValue, gate } from './registry/gate.js';
import { aaveDecoders } from './decode/aave.js';
import { balancerDecoders } from './decode/balancer.js';
import { compoundDecoders } from './decode/compound.js';
import { governanceDecoders } from './decode/governance.js';
import { morphoDecoders } from './decode/morpho.js';
import { recorder, type ActivityRecord, type Decoder, type DecodeContext, type RawLog } from './decode/scope.js';
import { erc721Transfer, transferDecoders } from './decode/transfers.js';
import { uniswapDecoders } from './decode/uniswap.js';
import { decodeStatic, staticLayout, type StaticLayout } from './decode/static-abi.js';

export type { ActivityRecord, DecodeContext, RawLog } from './decode/scope.js';

const DECODERS = new Map(
  Object.entries({
    ...transferDecoders,
    ...aaveDecoders,
    ...compoundDecoders,
    ...morphoDecoders,
    ...uniswapDecoders,
    ...balancerDecoders,
    ...governanceDecoders,
  }) as [EventName, Decoder][],
);

const lower = (v: unknown) => String(v).toLowerCase();

// events of static words only, decoded without viem (decode/static-abi.ts)
const LAYOUTS = new Map<string, StaticLayout | null>([...EVENTS_BY_TOPIC].map(([topic, def]) => [topic, staticLayout(def.abi)]));

/** The log's arguments (viem's strict decoding; static events directly), or null when the log is not this event. */
function decodeArgs(def: EventDef, log: RawLog): Record<string, unknown> | null {
  const layout = LAYOUTS.get(def.topic0);
  // viem matches the selector as written (lowercase): another casing is not this event to it
  const direct = layout && log.topics[0] === def.topic0 ? decodeStatic(layout, log.topics, log.data) : null;
  if (direct) return direct;
  try {
    const decoded = decodeEventLog({
      abi: [def.abi],
      topics: log.topics as [`0x${string}`],
      data: log.data as `0x${string}`,
      strict: true,
    });
    return (decoded.args ?? {}) as Record<string, unknown>;
  } catch {
    return null; // a log that merely shares a selector (wrong topic count or data layout) is not this event
  }
}

export function decodeLog(log: RawLog, ctx: DecodeContext): ActivityRecord[] {
  const topic0 = log.topics[0]?.toLowerCase();
  const def = topic0 ? EVENTS_BY_TOPIC.get(topic0) : undefined;
  if (!def) return [];
  const out: ActivityRecord[] = [];
  const contract = log.address.toLowerCase();
  const pass = gate(def.name, ctx.chainId, contract, ctx.pools);
  if (!pass.ok) {
    if (ctx.dropped) ctx.dropped[pass.reason]++;
    return [];
  }
  const add = recorder(log, ctx, contract, out);
  if (def.name === 'Transfer' && log.topics.length === 4) {
    erc721Transfer(log, ctx, contract, add);
    return out;
  }
  const args = decodeArgs(def, log);
  if (!args) return [];
  const price = (token: string | null) => (token && ctx.prices ? (ctx.prices(token, log.blockNumber) ?? null) : null);
  DECODERS.get(def.name)?.({
    log,
    ctx,
    name: def.name,
    contract,
    protocol: pass.protocol,
    args,
    add,
    a: (k) => (args[k] === undefined ? null : lower(args[k])),
    n: (k) => (args[k] === undefined ? null : String(args[k])),
    price,
    usd: (token, raw) => evidenceValue(ctx.chainId, token, raw, price(token)),
  });
  return out;
}

/** A contract deployment record, keyed by the deployed address (see ActivityRecord.txHash). */
export function deploymentRecord(
  chainId: number,
  deployer: string,
  contract: string,
  blockNumber: number,
  occurredAt: Date | null,
  hasCode: boolean,
): ActivityRecord {
  return {
    chainId,
    txHash: contract.toLowerCase(),
    logIndex: -1,
    wallet: deployer.toLowerCase(),
    kind: 'contract_deploy',
    blockNumber,
    occurredAt,
    contract: contract.toLowerCase(),
    counterparty: null,
    tokenId: null,
    amount: null,
    direction: null,
    protocol: null,
    ref: hasCode ? 'code' : null,
    // the deployer sent the creating transaction (found from its nonce or the transaction itself)
    txFrom: deployer.toLowerCase(),
  };
}
