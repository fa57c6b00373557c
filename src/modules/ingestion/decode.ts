// Decodes one log (from eth_getLogs or an ethereum-etl export) into normalized activity records, one per wallet
// the log concerns. Wallets come only from indexed topics, so a wallet's records are the same whether the log was
// found by a topic filter over JSON-RPC or read from a full export.
import { decodeEventLog } from 'viem';
import { EVENTS_BY_TOPIC, ZERO_ADDRESS, type ActivityKind } from './events.js';

export interface ActivityRecord {
  chainId: number;
  /** For contract deployments: the deployed address (the RPC path finds deployments from nonces, not transactions). */
  txHash: string;
  /** -1 for transaction-level records (native transfers, deployments). */
  logIndex: number;
  wallet: string;
  kind: ActivityKind;
  blockNumber: number;
  /** null when a bulk import knows no time for the block */
  occurredAt: Date | null;
  /** emitting contract (token, pool, pair, governor, registrar, EAS) or the deployed contract */
  contract: string | null;
  counterparty: string | null;
  tokenId: string | null;
  amount: string | null;
  direction: 'in' | 'out' | null;
  protocol: string | null;
  /** proposal id, ENS label hash, attestation uid, or 'code' for a deployed contract that has code */
  ref: string | null;
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  timestamp: Date | null;
}

export interface DecodeContext {
  chainId: number;
  /** The transaction's sender when known (bulk import): credited with the swaps its transaction made. */
  txFrom?: string | null;
}

const topicAddress = (t: string | undefined): string | null => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);
const lower = (v: unknown) => String(v).toLowerCase();

export function decodeLog(log: RawLog, ctx: DecodeContext): ActivityRecord[] {
  const topic0 = log.topics[0]?.toLowerCase();
  const def = topic0 ? EVENTS_BY_TOPIC.get(topic0) : undefined;
  if (!def) return [];
  const out: ActivityRecord[] = [];
  const contract = log.address.toLowerCase();
  const add = (wallet: string | null, kind: ActivityKind, f: Partial<ActivityRecord> = {}) => {
    if (!wallet || wallet === ZERO_ADDRESS) return;
    if (out.some((r) => r.wallet === wallet && r.kind === kind)) return;
    out.push({
      chainId: ctx.chainId,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      wallet,
      kind,
      blockNumber: log.blockNumber,
      occurredAt: log.timestamp,
      contract,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: null,
      ref: null,
      ...f,
    });
  };

  // ERC-721 Transfer shares ERC-20's selector but indexes tokenId: told apart by the topic count.
  if (def.name === 'Transfer' && log.topics.length === 4) {
    const from = topicAddress(log.topics[1]);
    const to = topicAddress(log.topics[2]);
    const tokenId = BigInt(log.topics[3]).toString();
    nftTransfer(add, from, to, 'transfer_erc721', { tokenId, amount: '1' });
    return out;
  }

  let args: Record<string, unknown>;
  try {
    const decoded = decodeEventLog({ abi: [def.abi], topics: log.topics as [`0x${string}`], data: log.data as `0x${string}`, strict: true });
    args = (decoded.args ?? {}) as Record<string, unknown>;
  } catch {
    return []; // a log that merely shares a selector (wrong topic count or data layout) is not this event
  }
  const a = (k: string) => (args[k] === undefined ? null : lower(args[k]));
  const n = (k: string) => (args[k] === undefined ? null : String(args[k]));

  switch (def.name) {
    case 'Transfer': {
      const from = a('from');
      const to = a('to');
      add(from, 'transfer_erc20', { direction: 'out', counterparty: to, amount: n('value') });
      add(to, 'transfer_erc20', { direction: 'in', counterparty: from, amount: n('value') });
      break;
    }
    case 'TransferSingle':
      nftTransfer(add, a('from'), a('to'), 'transfer_erc1155', { tokenId: n('id'), amount: n('value') });
      break;
    case 'TransferBatch': {
      const ids = args.ids as bigint[];
      const values = args.values as bigint[];
      const total = values.reduce((s, v) => s + v, 0n).toString();
      nftTransfer(add, a('from'), a('to'), 'transfer_erc1155', { tokenId: ids.length === 1 ? ids[0].toString() : null, amount: total });
      break;
    }
    case 'AaveSupply':
      add(a('onBehalfOf'), 'lending_supply', { protocol: 'aave-v3', counterparty: a('reserve'), amount: n('amount') });
      break;
    case 'AaveBorrow':
      add(a('onBehalfOf'), 'lending_borrow', { protocol: 'aave-v3', counterparty: a('reserve'), amount: n('amount') });
      break;
    case 'AaveRepay':
      add(a('user'), 'lending_repay', { protocol: 'aave-v3', counterparty: a('reserve'), amount: n('amount') });
      break;
    case 'AaveLiquidationCall':
      add(a('user'), 'lending_liquidation', { protocol: 'aave-v3', counterparty: a('debtAsset'), amount: n('debtToCover') });
      break;
    case 'CometSupply':
      add(a('dst'), 'lending_supply', { protocol: 'compound-v3', counterparty: a('from'), amount: n('amount') });
      break;
    case 'CometWithdraw':
      // Comet lends its base asset out through Withdraw, but a supplier redeeming emits the same event; telling
      // them apart needs account state, so it is kept as a withdrawal (not counted as a borrow).
      add(a('src'), 'lending_withdraw', { protocol: 'compound-v3', direction: 'out', counterparty: a('to'), amount: n('amount') });
      break;
    case 'CometAbsorbDebt':
      add(a('borrower'), 'lending_liquidation', { protocol: 'compound-v3', counterparty: a('absorber'), amount: n('basePaidOut') });
      break;
    case 'UniswapV2Swap':
    case 'UniswapV3Swap': {
      const protocol = def.name === 'UniswapV2Swap' ? 'uniswap-v2' : 'uniswap-v3';
      const recipient = a(def.name === 'UniswapV2Swap' ? 'to' : 'recipient');
      add(a('sender'), 'swap', { protocol, counterparty: recipient });
      add(recipient, 'swap', { protocol, counterparty: a('sender') });
      if (ctx.txFrom) add(ctx.txFrom.toLowerCase(), 'swap', { protocol, counterparty: recipient });
      break;
    }
    case 'VoteCast':
    case 'VoteCastWithParams':
      add(a('voter'), 'gov_vote', { ref: n('proposalId'), amount: n('weight'), protocol: 'oz-governor' });
      break;
    case 'DelegateChanged': {
      const delegator = a('delegator');
      const to = a('toDelegate');
      add(delegator, 'gov_delegate', { counterparty: to, protocol: 'erc20-votes' });
      if (to !== delegator) add(to, 'gov_delegated_to', { counterparty: delegator, protocol: 'erc20-votes' });
      break;
    }
    case 'EnsNameRegisteredV1':
    case 'EnsNameRegisteredV2':
      // the label hash is the base registrar's token id: one name counts once whichever event is seen
      add(a('owner'), 'ens_register', { ref: log.topics[1].toLowerCase(), protocol: 'ens' });
      break;
    case 'EnsBaseNameRegistered':
      add(a('owner'), 'ens_register', { ref: log.topics[1].toLowerCase(), protocol: 'ens' });
      break;
    case 'Attested': {
      const uid = n('uid');
      add(a('recipient'), 'attestation_received', { counterparty: a('attester'), ref: uid, protocol: 'eas' });
      add(a('attester'), 'attestation_made', { counterparty: a('recipient'), ref: uid, protocol: 'eas' });
      break;
    }
  }
  return out;
}

type Add = (wallet: string | null, kind: ActivityKind, f?: Partial<ActivityRecord>) => void;

function nftTransfer(add: Add, from: string | null, to: string | null, kind: ActivityKind, f: Partial<ActivityRecord>) {
  if (from === ZERO_ADDRESS) {
    add(to, 'nft_mint', { ...f, direction: 'in', counterparty: null });
    return;
  }
  add(from, kind, { ...f, direction: 'out', counterparty: to });
  add(to, kind, { ...f, direction: 'in', counterparty: from });
}

/** A contract deployment record, keyed by the deployed address (see ActivityRecord.txHash). */
export function deploymentRecord(chainId: number, deployer: string, contract: string, blockNumber: number, occurredAt: Date | null, hasCode: boolean): ActivityRecord {
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
  };
}
