// Who is signed in (the SIWE JWT, in sessionStorage for its one-hour life) and which API key the Developer page
// uses for its integration's usage and webhooks (in localStorage, per wallet: the service shows a key only once).
// The owner's own records are read with the session alone (api.ts `own`): no key.
import type { SignedIn } from '@credence/sdk';
import { client, keyed, own } from './api.ts';

/** The sign-in's answer kept for this tab, with when it ends (ms since the epoch). */
export type Session = Pick<SignedIn, 'token' | 'address' | 'roles'> & { expiresAt: number };

const SESSION = 'credence.console.session';
const keyItem = (address: string) => `credence.console.key.${address.toLowerCase()}`;

export function loadSession(): Session | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION) ?? 'null') as Session | null;
    if (!s || s.expiresAt < Date.now()) return null;
    client.setToken(s.token);
    own.setToken(s.token);
    keyed.setApiKey(localStorage.getItem(keyItem(s.address)));
    return s;
  } catch {
    return null;
  }
}

/** Sign-In with Ethereum through the SDK: the browser wallet signs the service's EIP-4361 message. */
export async function signInWithWallet(): Promise<Session> {
  // loaded on demand: the wallet code (viem) and the SIWE message are not needed to draw the page
  const [{ signIn }, { connectWallet }] = await Promise.all([import('@credence/sdk/siwe'), import('./wallet.ts')]);
  const { signer, chainId } = await connectWallet();
  // The service's sign-in domain is the host people reach it at (CREDENCE_SIWE_DOMAIN / CREDENCE_PUBLIC_URL).
  const r = await signIn(client, signer, { domain: location.host, uri: location.origin, chainId, statement: 'Sign in to the Credence console' });
  const s: Session = { token: r.token, address: r.address, roles: r.roles, expiresAt: Date.now() + r.expiresIn * 1000 };
  sessionStorage.setItem(SESSION, JSON.stringify(s));
  client.setToken(s.token);
  own.setToken(s.token);
  keyed.setApiKey(localStorage.getItem(keyItem(s.address)));
  return s;
}

export function signOut(): void {
  sessionStorage.removeItem(SESSION);
  client.setToken(null);
  own.setToken(null);
  keyed.setApiKey(null);
}

export const storedKey = (address: string) => localStorage.getItem(keyItem(address));

export function useKey(address: string, key: string | null): void {
  if (key) localStorage.setItem(keyItem(address), key);
  else localStorage.removeItem(keyItem(address));
  keyed.setApiKey(key);
}
