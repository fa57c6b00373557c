// Malformed provider answers are provider errors at the transport, never NaN into SQL: a simulated
// JSON-RPC provider on 127.0.0.1 answers eth_getBlockByNumber("finalized") with a number that is not a quantity.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport } from './rpc-transport.js';
import { createRpcSource } from './rpc-source.js';
import { malformedAnswer } from './rpc-answers.js';

describe('provider answers are checked at the transport', () => {
  let server: http.Server;
  let url: string;
  /** how many more malformed answers the provider gives before a good one */
  let badLeft = 0;
  let finalizedCalls = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const msg = JSON.parse(body) as
          { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
        const answer = (m: { id: number; method: string; params: unknown[] }) => {
          if (m.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: m.id, result: '0x64' };
          if (m.method === 'eth_getBlockByNumber' && m.params[0] === 'finalized') {
            finalizedCalls++;
            const bad = badLeft > 0;
            if (bad) badLeft--;
            return { jsonrpc: '2.0', id: m.id, result: { number: bad ? 'banana' : '0x5a', timestamp: '0x65' } };
          }
          return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } };
        };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(msg) ? msg.map(answer) : answer(msg)));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a block number that is not a quantity is an error, retried with back-off; a good answer after it is used', async () => {
    const t = createTransport(url, { baseDelayMs: 1, attempts: 4 });
    badLeft = 2;
    finalizedCalls = 0;
    const [ok] = await t.batch([{ method: 'eth_getBlockByNumber', params: ['finalized', false] }]);
    expect(ok).toEqual({ ok: true, value: { number: '0x5a', timestamp: '0x65' } });
    expect(finalizedCalls).toBe(3);

    badLeft = 100;
    finalizedCalls = 0;
    const [bad] = await t.batch([{ method: 'eth_getBlockByNumber', params: ['finalized', false] }]);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.message).toMatch(/malformed answer to eth_getBlockByNumber: number "banana" is not a quantity/);
    expect(finalizedCalls).toBe(4); // every attempt made, then reported
    await expect(t.request('eth_getBlockByNumber', ['finalized', false])).rejects.toThrow(/malformed answer/);
  });

  it("the chain source's tip never carries NaN: a finalized block it cannot read counts as none", async () => {
    badLeft = 1_000;
    const src = createRpcSource(1, url, { baseDelayMs: 1, attempts: 3 });
    const tip = await src.tip();
    expect(tip.head).toBe(100);
    expect(tip.finalized).toBeNull();
    badLeft = 0;
  });

  it('checks the shapes the sync reads', () => {
    expect(malformedAnswer('eth_blockNumber', '0x1f')).toBeNull();
    expect(malformedAnswer('eth_blockNumber', 12)).toMatch(/not a quantity/);
    expect(malformedAnswer('eth_getBalance', '0xzz')).toMatch(/not a quantity/);
    expect(malformedAnswer('eth_getBlockByNumber', null)).toBeNull();
    expect(malformedAnswer('eth_getBlockByNumber', { number: '0x1', timestamp: 'soon' })).toMatch(/timestamp/);
    const log = {
      address: '0x' + 'a'.repeat(40),
      topics: ['0x' + '1'.repeat(64)],
      data: '0x',
      blockNumber: '0x2',
      logIndex: '0x0',
      transactionHash: '0x' + 'c'.repeat(64),
    };
    expect(malformedAnswer('eth_getLogs', [log])).toBeNull();
    expect(malformedAnswer('eth_getLogs', [log, { ...log, blockNumber: 'NaN' }])).toMatch(/\[1\] blockNumber/);
    expect(malformedAnswer('eth_getLogs', { logs: [] })).toMatch(/not an array/);
    expect(malformedAnswer('eth_getTransactionReceipt', { logs: [{ ...log, logIndex: null }] })).toMatch(/logIndex/);
    expect(malformedAnswer('eth_someOtherMethod', 'anything')).toBeNull();
  });
});
