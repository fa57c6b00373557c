// Sign-In with Ethereum (EIP-4361) against Credence: a nonce, a message signed by the wallet, a JWT.
import { SiweMessage } from 'siwe';
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';

/** Anything that can personal_sign: an ethers Wallet or Signer, a viem account wrapper, a browser wallet adapter. */
export interface SiweSigner {
  getAddress(): Promise<string> | string;
  signMessage(message: string): Promise<string>;
}

export interface SignInOptions {
  /** The service's sign-in domain (its CREDENCE_SIWE_DOMAIN, else the host of its public URL), e.g. api.credence.example */
  domain: string;
  /** The URI the user signs in to; defaults to https://<domain> */
  uri?: string;
  chainId?: number;
  statement?: string;
}

export interface SignedIn {
  token: string;
  address: string;
  expiresIn: number;
  roles: string[];
}

export async function signIn(client: Client<paths>, signer: SiweSigner, opts: SignInOptions): Promise<SignedIn> {
  const nonce = await client.GET('/api/v1/auth/nonce');
  if (!nonce.data) throw new Error(`Credence sign-in: nonce failed (${nonce.response.status}): ${JSON.stringify(nonce.error)}`);
  const message = new SiweMessage({
    domain: opts.domain,
    address: await signer.getAddress(),
    statement: opts.statement ?? 'Sign in to Credence',
    uri: opts.uri ?? `https://${opts.domain}`,
    version: '1',
    chainId: opts.chainId ?? 1,
    nonce: nonce.data.nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  const signature = await signer.signMessage(message);
  const res = await client.POST('/api/v1/auth/verify', { body: { message, signature } });
  if (!res.data) throw new Error(`Credence sign-in: verify failed (${res.response.status}): ${JSON.stringify(res.error)}`);
  const d = res.data as { token: string; address: string; expiresIn: number; roles?: string[] };
  return { token: d.token, address: d.address, expiresIn: d.expiresIn, roles: d.roles ?? [] };
}
