// What a provider's refusal means, with the messages real providers send (docs/ingestion.md, "Provider limits"):
// a span refusal teaches the endpoint's cap, a result-size refusal or a timeout only shrinks the current sync.
import { afterEach, describe, expect, it } from 'vitest';
import { classify, RpcError, statedBlockCap, suggestedRange } from './rpc-errors.js';
import { limitsFor, resetLearnedLimits } from './rpc-limits.js';

const INFURA_RESULTS = 'query returned more than 10000 results. Try with this block range [0x112a880, 0x112b3c7].';
const ALCHEMY_RESULTS =
  'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can ' +
  'request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [0x112a880, 0x112aa1b]';
const ALCHEMY_FREE =
  'Under the Free tier plan, you can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [0x0, 0x1f3]';
const QUICKNODE = 'eth_getLogs is limited to a 10,000 range';
const INFURA_SPAN = 'query exceeds limit of 10000 blocks';

const err = (message: string, code: number | null, data?: unknown, httpStatus: number | null = null) =>
  new RpcError(message, code, data, httpStatus);

describe('classify', () => {
  it('Infura -32005 "more than 10000 results": a result-size refusal with the suggested range, no block cap', () => {
    expect(classify(err(INFURA_RESULTS, -32005))).toEqual({
      kind: 'range',
      cause: 'results',
      blockCap: null,
      suggested: { from: 0x112a880, to: 0x112b3c7 },
      message: INFURA_RESULTS,
    });
  });

  it('Infura -32005 with error.data {from, to}: data is the suggested range', () => {
    const c = classify(err('query returned more than 10000 results', -32005, { from: '0x10', to: '0x2f', limit: 10000 }));
    expect(c).toMatchObject({ kind: 'range', cause: 'results', blockCap: null, suggested: { from: 16, to: 47 } });
  });

  it('Alchemy -32602 "Log response size exceeded": results, not the 2K block range it mentions', () => {
    expect(classify(err(ALCHEMY_RESULTS, -32602))).toMatchObject({
      kind: 'range',
      cause: 'results',
      blockCap: null,
      suggested: { from: 0x112a880, to: 0x112aa1b },
    });
  });

  it('Alchemy free tier -32600 "up to a 500 block range": a span refusal with cap 500', () => {
    expect(classify(err(ALCHEMY_FREE, -32600))).toMatchObject({
      kind: 'range',
      cause: 'span',
      blockCap: 500,
      suggested: { from: 0, to: 499 },
    });
  });

  it('QuickNode -32614 "eth_getLogs is limited to a 10,000 range": a span refusal with cap 10,000', () => {
    expect(classify(err(QUICKNODE, -32614))).toMatchObject({ kind: 'range', cause: 'span', blockCap: 10_000, suggested: null });
  });

  it('Infura -32602 "query exceeds limit of 10000 blocks": cap 10,000', () => {
    expect(classify(err(INFURA_SPAN, -32602))).toMatchObject({ kind: 'range', cause: 'span', blockCap: 10_000 });
  });

  it('Ankr / public nodes: -32062 "block range is too wide" (no number), -32000 "exceed maximum block range: 5000"', () => {
    expect(classify(err('block range is too wide', -32062))).toMatchObject({
      kind: 'range',
      cause: 'span',
      blockCap: null,
      suggested: null,
    });
    expect(classify(err('exceed maximum block range: 5000', -32000))).toMatchObject({ kind: 'range', cause: 'span', blockCap: 5000 });
  });

  it('timeouts shrink the run, never teach a cap: "query timeout exceeded", "request timed out", a 504, our own request timer', () => {
    for (const [message, code, status] of [
      ['query timeout exceeded', -32000, null],
      ['request timed out', -32000, null],
      ['Query timeout exceeded. Consider reducing your block range', -32000, null],
      ['context deadline exceeded', -32000, null],
      ['HTTP 504: <html><body><h1>504 Gateway Time-out</h1></body></html>', null, 504],
      ['The operation was aborted due to timeout', null, null],
    ] as const) {
      expect(classify(err(message, code, undefined, status)), message).toMatchObject({ kind: 'range', cause: 'timeout', blockCap: null });
    }
    expect(classify(err('HTTP 504: upstream request failed', null, undefined, 504))).toMatchObject({
      kind: 'range',
      cause: 'timeout',
      blockCap: null,
    });
    // not through RpcError (a DOMException from fetch)
    expect(classify(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toMatchObject({
      kind: 'range',
      cause: 'timeout',
    });
  });

  it('rate limits, transient and fatal errors are told apart from range refusals', () => {
    expect(classify(err('project ID request rate exceeded', -32005, undefined, 429))).toMatchObject({ kind: 'rate' });
    expect(classify(err('project ID request rate exceeded', -32005))).toMatchObject({ kind: 'rate' });
    expect(
      classify(err('15/second request limit reached - reduce calls per second or upgrade your account at quicknode.com', -32007)),
    ).toMatchObject({ kind: 'rate' });
    expect(classify(err('Your app has exceeded its compute units per second capacity.', 429))).toMatchObject({ kind: 'rate' });
    expect(classify(err('internal error', -32603))).toMatchObject({ kind: 'transient' });
    expect(classify(err('HTTP 502: bad gateway', null, undefined, 502))).toMatchObject({ kind: 'transient' });
    expect(classify(err('rejected due to project ID settings', -32002))).toMatchObject({ kind: 'fatal' });
    expect(classify(new TypeError('fetch failed'))).toMatchObject({ kind: 'transient' });
  });
});

describe('statedBlockCap', () => {
  it('reads the cap in every wording providers use', () => {
    expect(statedBlockCap(INFURA_SPAN)).toBe(10_000);
    expect(statedBlockCap(QUICKNODE)).toBe(10_000);
    expect(statedBlockCap(ALCHEMY_FREE)).toBe(500);
    expect(statedBlockCap('exceed maximum block range: 5000')).toBe(5000);
    expect(statedBlockCap('exceed maximum block range: 50000')).toBe(50_000);
    expect(statedBlockCap('Max range is 5000')).toBe(5000);
    expect(statedBlockCap('ranges over 10000 blocks are not supported')).toBe(10_000);
    expect(statedBlockCap('You can make eth_getLogs requests with up to a 2K block range')).toBe(2000);
    expect(statedBlockCap('block range of 1000')).toBe(1000);
  });

  it('finds none where no number is stated', () => {
    expect(statedBlockCap('block range is too wide')).toBeNull();
    expect(statedBlockCap('query timeout exceeded')).toBeNull();
    expect(statedBlockCap(INFURA_RESULTS)).toBeNull();
  });
});

describe('suggestedRange', () => {
  it('reads [0x.., 0x..] from the message (Infura, Alchemy) and {from, to} from error.data, hex or decimal', () => {
    expect(suggestedRange(INFURA_RESULTS, undefined)).toEqual({ from: 0x112a880, to: 0x112b3c7 });
    expect(suggestedRange(ALCHEMY_RESULTS, undefined)).toEqual({ from: 0x112a880, to: 0x112aa1b });
    expect(suggestedRange('query returned more than 10000 results', { from: '0x112a880', to: '0x112b3c7', limit: 10000 })).toEqual({
      from: 0x112a880,
      to: 0x112b3c7,
    });
    expect(suggestedRange('too many results', { from: 100, to: '250' })).toEqual({ from: 100, to: 250 });
    // data wins over the message
    expect(suggestedRange('Try with this block range [0x1, 0x2].', { from: '0x10', to: '0x20' })).toEqual({ from: 16, to: 32 });
  });

  it('ignores what is not a range', () => {
    expect(suggestedRange(QUICKNODE, undefined)).toBeNull();
    expect(suggestedRange('block range [0x20, 0x10]', undefined)).toBeNull();
    expect(suggestedRange('too many results', { from: 'soon', to: null })).toBeNull();
    expect(suggestedRange('too many results', 'not an object')).toBeNull();
  });
});

describe('what an endpoint learns', () => {
  afterEach(() => resetLearnedLimits());

  it('a stated span refusal caps the endpoint; the result-size and timeout refusals classify() gives carry no cap to learn', () => {
    const limits = limitsFor('http://127.0.0.1:1/learn');
    for (const e of [err(INFURA_RESULTS, -32005), err(ALCHEMY_RESULTS, -32602), err('query timeout exceeded', -32000)]) {
      const c = classify(e);
      expect(c.kind === 'range' && c.cause !== 'span' && c.blockCap === null).toBe(true);
    }
    const span = classify(err(QUICKNODE, -32614));
    expect(span.kind === 'range' && span.cause === 'span' && span.blockCap).toBe(10_000);
    limits.refused(20_000, 10_000);
    expect(limits.span()).toBe(10_000);
  });
});
