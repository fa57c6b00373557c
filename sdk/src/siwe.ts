// Sign-In with Ethereum (EIP-4361) against Credence: a nonce, a message signed by the wallet, a JWT. The message
// is written here (no `siwe` or `ethers` needed); any of these signs it: an ethers Wallet or Signer, a viem
// account (privateKeyToAccount, a JSON-RPC account), a viem WalletClient with an account, or anything with
// `getAddress()` + `signMessage(message)`.
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import { errorFromResponse } from './errors.js';

/** Anything that can personal_sign with `getAddress()` + `signMessage(string)` (ethers' shape). */
export interface SiweSigner {
  getAddress(): Promise<string> | string;
  signMessage(message: string): Promise<string>;
}
/** A viem account: `privateKeyToAccount(...)`, `mnemonicToAccount(...)`, `toAccount(...)`. */
export interface ViemAccountLike {
  address: `0x${string}`;
  signMessage(args: { message: string }): Promise<`0x${string}`>;
}
/** A viem WalletClient with an account (createWalletClient({ account, transport })). */
export interface ViemWalletClientLike {
  account: { address: `0x${string}` } | undefined;
  signMessage(args: { account: never; message: string }): Promise<`0x${string}`>;
}
export type AnySigner = SiweSigner | ViemAccountLike | ViemWalletClientLike;

/** One shape for every kind of signer. */
export function toSigner(s: AnySigner): SiweSigner {
  if ('getAddress' in s && typeof s.getAddress === 'function') return s as SiweSigner;
  if ('account' in s && s.account && !('address' in s && typeof (s as { address?: unknown }).address === 'string')) {
    const client = s as ViemWalletClientLike;
    const account = client.account!;
    return { getAddress: () => account.address, signMessage: (message) => client.signMessage({ account: account as never, message }) };
  }
  const account = s as ViemAccountLike;
  if (typeof account.address !== 'string')
    throw new TypeError('signIn: the signer has no address (pass an ethers Signer, a viem account or a viem WalletClient with an account)');
  return { getAddress: () => account.address, signMessage: (message) => account.signMessage({ message }) };
}

export interface SignInOptions {
  /** The service's sign-in domain (its CREDENCE_SIWE_DOMAIN, else the host of its public URL); default: the host of baseUrl */
  domain?: string;
  /** The URI the user signs in to; default: the origin of baseUrl */
  uri?: string;
  chainId?: number;
  statement?: string;
  /** `test` signs in to the sandbox: the token works as a cred_test_ key does, on every route; default live */
  environment?: 'live' | 'test';
}

export interface SignedIn {
  token: string;
  address: string;
  expiresIn: number;
  roles: string[];
  /** the environment the token works in */
  environment: 'live' | 'test';
}

/** The EIP-4361 message, as the spec lays it out. */
export function siweMessage(m: {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
}): string {
  return [
    `${m.domain} wants you to sign in with your Ethereum account:`,
    m.address,
    '',
    m.statement,
    '',
    `URI: ${m.uri}`,
    'Version: 1',
    `Chain ID: ${m.chainId}`,
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt}`,
  ].join('\n');
}

/** The client's base URL, kept by createCredenceClient so sign-in can default its domain and uri. */
export const BASE_URL = Symbol.for('credence.baseUrl');

export async function signIn(client: Client<paths>, signer: AnySigner, opts: SignInOptions = {}): Promise<SignedIn> {
  const s = toSigner(signer);
  const base = (client as { [BASE_URL]?: string })[BASE_URL];
  const origin = base ? new URL(base) : null;
  const domain = opts.domain ?? origin?.host;
  if (!domain) throw new TypeError("signIn: pass `domain` (the service's sign-in domain)");
  const nonce = await client.GET('/api/v1/auth/nonce');
  if (!nonce.data) throw errorFromResponse(nonce.response, nonce.error);
  const address = await s.getAddress();
  const message = siweMessage({
    domain,
    address,
    statement: opts.statement ?? 'Sign in to Credence',
    // the service wants the uri on its sign-in domain: baseUrl's origin when that is the domain
    uri: opts.uri ?? (origin && origin.host === domain ? origin.origin : `${origin?.protocol ?? 'https:'}//${domain}`),
    chainId: opts.chainId ?? 1,
    nonce: nonce.data.nonce,
    issuedAt: new Date().toISOString(),
  });
  const signature = await s.signMessage(message);
  const res = await client.POST('/api/v1/auth/verify', {
    body: { message, signature, ...(opts.environment ? { environment: opts.environment } : {}) },
  });
  if (!res.data) throw errorFromResponse(res.response, res.error);
  const d = res.data as { token: string; address: string; expiresIn: number; roles?: string[]; environment?: 'live' | 'test' };
  return { token: d.token, address: d.address, expiresIn: d.expiresIn, roles: d.roles ?? [], environment: d.environment ?? 'live' };
}
