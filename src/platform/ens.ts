// ENS names wherever a route takes a wallet: fields declared with AddressOrEns (format `eth-address-or-ens`,
// src/platform/http/schemas.ts) may carry a name such as `vitalik.eth`. After validation (and after the API key and
// quota checks) one preHandler resolves every name of the request over the mainnet JSON-RPC (CREDENCE_RPC_URL_1)
// and writes the address in its place, so handlers only ever see 0x addresses.
//
// Resolution walks the ENS registry at its canonical address (ethers' EnsResolver: resolver(namehash) on the registry,
// then addr(bytes32) on the resolver, EIP-2544 wildcards included), with a small per-instance cache. CCIP-read
// (EIP-3668) is off: it would make this server fetch whatever URL a name's resolver names (SSRF), so a name whose
// resolver answers only off-chain does not resolve here.
// Outcomes: no mainnet RPC configured -> 400 validation_failed; a name that is not a valid ENS name -> 400;
// no resolver or no address record -> 404 not_found; the RPC failing or timing out -> 502 upstream_unavailable.
import type { AbstractProvider, Network } from 'ethers';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from './context.js';
import { AppError, badRequest, notFound, upstream, type FieldError } from './errors.js';
import { loadEthers } from './lazy-ethers.js';
import { isAddress } from './http/address.js';
import { errorResponses } from './openapi.js';

/** The ENS registry on Ethereum mainnet (the same address on its testnets). */
export const ENS_REGISTRY = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e';
export const ENS_FORMAT = 'eth-address-or-ens';

export const NO_MAINNET_RPC =
  'is an ENS name; names are resolved over the Ethereum mainnet JSON-RPC, which this server does not have (set CREDENCE_RPC_URL_1). Send the 0x address instead';

export interface EnsResolver {
  /** The checksummed address of a normalized name, or null when it has no resolver or no address record. */
  resolve(name: string): Promise<string | null>;
  close(): void;
}

export interface EnsResolverOptions {
  /** Cache lifetime of a resolved name (default 5 minutes) and of a name that did not resolve (default 1 minute). */
  ttlMs?: number;
  negativeTtlMs?: number;
  /** Per-name time limit, RPC round trips included (default 10 s). */
  timeoutMs?: number;
  /** Cached names kept at most (default 10,000; the cache is emptied when full). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Chain 1 as ethers knows it, except that ENS is read through the registry (no Universal Resolver): the registry
 * is the root every ENS deployment answers from, and a local chain only needs it (and a resolver) to resolve names.
 * The network is static: no eth_chainId probe, no start-up retry loop when the RPC is down.
 */
function mainnet({ Network, EnsPlugin }: typeof import('ethers')): Network {
  const n = new Network('mainnet', 1);
  n.attachPlugin(new EnsPlugin(ENS_REGISTRY, 1));
  return n;
}

export function createEnsResolver(rpcUrl: string, opts: EnsResolverOptions = {}): EnsResolver {
  const ttl = opts.ttlMs ?? 5 * 60_000;
  const negativeTtl = opts.negativeTtlMs ?? 60_000;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { address: string | null; until: number }>();
  const inFlight = new Map<string, Promise<string | null>>();
  let provider: AbstractProvider | null = null;
  const connect = (ethers: typeof import('ethers')): AbstractProvider => {
    if (provider) return provider;
    const { FetchRequest, JsonRpcProvider, WebSocketProvider } = ethers;
    const network = mainnet(ethers);
    if (/^wss?:/i.test(rpcUrl)) {
      provider = new WebSocketProvider(rpcUrl, network, { staticNetwork: network });
    } else {
      const req = new FetchRequest(rpcUrl);
      req.timeout = timeoutMs;
      provider = new JsonRpcProvider(req, network, { staticNetwork: network, batchMaxCount: 1 });
    }
    provider.disableCcipRead = true;
    return provider;
  };

  async function lookup(name: string): Promise<string | null> {
    const ethers = await loadEthers();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`ENS resolution of ${name} timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const address = await Promise.race([connect(ethers).resolveName(name), timeout]);
      return address ? ethers.getAddress(address) : null;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async resolve(name) {
      const hit = cache.get(name);
      if (hit && hit.until > now()) return hit.address;
      let p = inFlight.get(name);
      if (!p) {
        p = lookup(name)
          .then((address) => {
            if (cache.size >= maxEntries) cache.clear();
            cache.set(name, { address, until: now() + (address ? ttl : negativeTtl) });
            return address;
          })
          .finally(() => inFlight.delete(name));
        inFlight.set(name, p);
      }
      return p;
    },
    close() {
      provider?.destroy();
      provider = null;
      cache.clear();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Request side: where a route's schema takes names, and the hook that replaces them with addresses.

type Segment = string | typeof EACH;
const EACH = Symbol('each');
type Part = 'params' | 'query' | 'body';
interface Slot {
  part: Part;
  path: Segment[];
}

/** Paths (within one request part) of every field whose schema has the `eth-address-or-ens` format. */
export function ensPaths(schema: unknown, prefix: Segment[] = []): Segment[][] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  if (s.format === ENS_FORMAT) return [prefix];
  const out: Segment[][] = [];
  if (s.properties && typeof s.properties === 'object') {
    for (const [k, v] of Object.entries(s.properties as Record<string, unknown>)) out.push(...ensPaths(v, [...prefix, k]));
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.push(...ensPaths(s.items, [...prefix, EACH]));
  for (const k of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(s[k])) for (const sub of s[k] as unknown[]) out.push(...ensPaths(sub, prefix));
  return out;
}

interface Found {
  field: string;
  name: string;
  set(address: string): void;
}

/** Every name (not 0x address) present at the slots of this request, with a setter writing its address in place. */
function namesIn(req: FastifyRequest, slots: Slot[]): Found[] {
  const out: Found[] = [];
  const walk = (container: Record<string | number, unknown>, key: string | number, rest: Segment[], field: string) => {
    const v = container[key];
    if (rest.length === 0) {
      if (typeof v === 'string' && !isAddress(v)) out.push({ field, name: v, set: (a) => void (container[key] = a) });
      return;
    }
    const [head, ...tail] = rest;
    if (head === EACH) {
      if (Array.isArray(v)) v.forEach((_, i) => walk(v as unknown as Record<number, unknown>, i, tail, `${field}[${i}]`));
    } else if (v && typeof v === 'object') {
      walk(v as Record<string, unknown>, head, tail, field ? `${field}.${head}` : head);
    }
  };
  for (const { part, path } of slots) {
    const root = { [part]: req[part] } as Record<string, unknown>;
    walk(root, part, path, '');
  }
  return out;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The ENS names this request used, by field (`address`, `addresses[2]`); the field now holds the address. */
    ensNames?: Map<string, string>;
  }
}

/** The ENS name the request gave for this field, if it gave one (for responses that echo it). */
export const ensNameOf = (req: FastifyRequest, field: string): string | undefined => req.ensNames?.get(field);

const CONCURRENCY = 8;

/** Registers the resolution hook on every route whose schema takes names, and documents the extra statuses. */
export function registerEns(app: FastifyInstance, ctx: AppContext, opts: EnsResolverOptions = {}) {
  const rpcUrl = ctx.config.rpcUrls[1];
  const resolver = rpcUrl ? createEnsResolver(rpcUrl, opts) : null;
  if (resolver) ctx.onClose(() => resolver.close());

  async function resolveAll(req: FastifyRequest, found: ReturnType<typeof namesIn>): Promise<void> {
    if (!resolver)
      throw badRequest(
        `Invalid request: ${found.map((f) => `${f.field} ${NO_MAINNET_RPC}`).join('; ')}.`,
        found.map((f) => ({ field: f.field, message: NO_MAINNET_RPC })),
      );
    const { ensNormalize } = await loadEthers();
    const invalid: FieldError[] = [];
    const normalized = found.map((f) => {
      try {
        return ensNormalize(f.name);
      } catch (e) {
        invalid.push({
          field: f.field,
          message: `is not a valid ENS name (${(e as { shortMessage?: string }).shortMessage ?? (e as Error).message})`,
        });
        return '';
      }
    });
    if (invalid.length) throw badRequest(`Invalid request: ${invalid.map((f) => `${f.field} ${f.message}`).join('; ')}.`, invalid);

    const unique = [...new Set(normalized)];
    const addresses = new Map<string, string | null>();
    let failure: unknown = null;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, unique.length) }, async () => {
        while (next < unique.length && !failure) {
          const name = unique[next++];
          try {
            addresses.set(name, await resolver.resolve(name));
          } catch (e) {
            failure ??= e;
          }
        }
      }),
    );
    if (failure) {
      req.log.warn({ err: failure }, 'ENS resolution failed');
      throw upstream(
        'ENS names could not be resolved: the Ethereum mainnet JSON-RPC (CREDENCE_RPC_URL_1) failed or timed out. Retry, or send the 0x address.',
      );
    }
    const unresolved = found.filter((_, i) => !addresses.get(normalized[i]));
    if (unresolved.length) {
      throw notFound(
        `${unresolved.map((f) => `${f.field}: the ENS name ${f.name}`).join('; ')} ${unresolved.length > 1 ? 'do' : 'does'} not resolve to an address ` +
          '(no resolver or no address record on Ethereum mainnet).',
      );
    }
    req.ensNames = new Map();
    found.forEach((f, i) => {
      f.set(addresses.get(normalized[i])!);
      req.ensNames!.set(f.field, normalized[i]);
    });
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    const slots: Slot[] = [
      ...ensPaths(schema.params).map((path) => ({ part: 'params' as const, path })),
      ...ensPaths(schema.querystring).map((path) => ({ part: 'query' as const, path })),
      ...ensPaths(schema.body).map((path) => ({ part: 'body' as const, path })),
    ];
    if (!slots.length) return;
    // 404 (a name that does not resolve) and 502 (the RPC failing) can answer any route that takes names.
    const response = (schema.response ??= {}) as Record<string, unknown>;
    for (const [code, body] of Object.entries(errorResponses(404, 502))) if (!(code in response)) response[code] = body;
    // callback style: a request without names (nearly all) costs one scan and no promise on the hot path
    const hook = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      // A request already invalid (routes with attachValidation) is answered by its validation, which names every
      // offending field: resolving (or refusing) a name first would answer about that one field alone.
      if (req.validationError) return done();
      const found = namesIn(req, slots);
      if (!found.length) return done();
      resolveAll(req, found).then(
        () => done(),
        (e) => done(e instanceof AppError ? e : upstream('ENS names could not be resolved.')),
      );
    };
    route.preHandler = [
      ...(route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]),
      hook,
    ];
  });
}
