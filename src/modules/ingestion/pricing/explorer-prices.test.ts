// The explorer source combined with a JSON-RPC endpoint for the same chain: the explorer backfills the history and
// its non-stable amounts are priced by the chain's Aave V3 oracle over the JSON-RPC endpoint (the explorer alone
// leaves them unvalued). Simulators: test/fakes/explorer-api.ts and test/fakes/rpc-provider.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, pad, parseAbi, parseEther, type Hex } from 'viem';
import { randomAddress } from '../../../../test/helpers/app.js';
import { testDatabase } from '../../../../test/helpers/db.js';
import { explorerHistory, startFakeExplorer, TOKENS, type FakeExplorer } from '../../../../test/fakes/explorer-api.js';
import { simulateChain } from '../../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../../../../test/fakes/rpc-provider.js';
import type { Db } from '../../../platform/db/types.js';
import { EVENT_ABI } from '../events.js';
import { createExplorerClient } from '../explorer/source.js';
import { pinnedContracts } from '../registry/index.js';
import { createIngestionRepo } from '../repo.js';
import { createRpcSource } from '../rpc-source.js';
import { createIngestionService } from '../service.js';
import { oracleFor } from './oracle.js';

const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const WETH = TOKENS[1].weth;
const SUPPLY = EVENT_ABI.filter((e) => e.name === 'Supply')[0];
const ORACLE_ABI = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);

const fakes: (FakeExplorer | FakeProvider)[] = [];
const dbs: Db[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
  for (const d of dbs) await d.close();
});

async function run(withRpc: boolean) {
  const wallet = randomAddress().toLowerCase();
  const history = explorerHistory(1, wallet, 10);
  // a 100-WETH supply on the pinned Aave V3 pool, found by the explorer's logs (topic 2 = wallet)
  const block = history.head - 50_000;
  const topics = (
    encodeEventTopics({
      abi: [SUPPLY],
      eventName: 'Supply',
      args: { reserve: WETH, onBehalfOf: wallet, referralCode: 0 },
    } as never) as string[]
  ).map((t) => t.toLowerCase());
  const inputs = (SUPPLY.inputs as readonly { type: string; indexed?: boolean }[]).filter((i) => !i.indexed);
  const data = encodeAbiParameters(inputs as never, [wallet, parseEther('100')] as never);
  history.logs.push({
    address: POOL,
    topics,
    data,
    blockNumber: block,
    timeStamp: 1_600_000_000 + block * 2,
    transactionHash: pad('0x5eed'),
    logIndex: 7,
  });
  const explorer = await startFakeExplorer({ 1: history }, { rps: 50 });
  fakes.push(explorer);
  const sources = [];
  let provider: FakeProvider | undefined;
  if (withRpc) {
    const chain = simulateChain({ wallet, events: 0, head: history.head });
    chain.logs.length = 0; // the RPC side only follows the head after the explorer's backfill
    chain.calls.set(
      `${oracleFor(1)!.address}:${encodeFunctionData({ abi: ORACLE_ABI, functionName: 'getAssetPrice', args: [WETH as Hex] }).toLowerCase()}`,
      pad(`0x${(2500n * 10n ** 8n).toString(16)}`),
    );
    provider = await startFakeProvider(chain, 'open');
    fakes.push(provider);
    sources.push(createRpcSource(1, provider.url));
  }
  const db = await testDatabase();
  dbs.push(db);
  const client = createExplorerClient({ url: explorer.url, apiKey: explorer.apiKey, rps: 50 });
  const engine = createIngestionService({
    db,
    repo: createIngestionRepo(db),
    sources,
    explorers: [client.source(1)],
    log: { warn() {}, error() {}, debug() {} },
    concurrency: 1,
    ingestOnRead: true,
    sync: { useFinalized: true },
    pinned: (id) => pinnedContracts(id),
  });
  const [res] = await engine.syncWallet(wallet);
  expect(res.complete).toBe(true);
  const [row] = await db.query<{ value_usd: string | null; counterparty: string }>(
    "SELECT value_usd, counterparty FROM wallet_activity WHERE wallet = $1 AND kind = 'lending_supply' AND tx_hash = $2",
    [wallet, pad('0x5eed')],
  );
  await engine.stop();
  return { row, provider };
}

describe('explorer backfill with a JSON-RPC endpoint for the chain', () => {
  it('values a 100-WETH supply at the oracle price of its block, read over JSON-RPC (one eth_call)', async () => {
    const { row, provider } = await run(true);
    expect(row.counterparty).toBe(WETH);
    expect(Number(row.value_usd)).toBe(250_000);
    expect(provider!.calls.get('eth_call')).toBe(1);
  });

  it('the explorer alone reads no price: the same supply is unvalued', async () => {
    const { row } = await run(false);
    expect(row.value_usd).toBeNull();
  });
});
