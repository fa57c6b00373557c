// The console's one door to the service: the project's SDK, on the same origin. Every call goes through
// `call`, which turns the API's error body into an Error whose message is the API's own `details` text.
import { createCredenceClient, type CredenceClient } from '@credence/sdk';

/** The session's client for what a signed-in wallet manages: its API keys, and (administrators) the admin pages. */
export const client: CredenceClient = createCredenceClient({ baseUrl: location.origin });
/** The API key chosen on the Developer page, alone (its usage, plan, checkout and webhooks): a key and a session of
 *  different environments together are refused by the service, and a key call needs no session. */
export const keyed: CredenceClient = createCredenceClient({ baseUrl: location.origin });
/** The wallet owner's client: the session alone. A signed-in wallet reads its own scores, history, claims, disputes,
 *  DID and proofs with it: no API key, no quota of any integrator's plan. */
export const own: CredenceClient = createCredenceClient({ baseUrl: location.origin });

/** "1 claim", "0 claims", "3 entries": a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** An API error: status, code and the API's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    details: string,
  ) {
    super(details);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The API's `details` (with the offending fields of a 400), else a plain sentence about the status. */
export function detailsOf(status: number, error: unknown): string {
  // decisions.md: every error body is {error, details}; details names every offending field of a 400
  const e = error as { details?: unknown } | undefined;
  if (e && typeof e.details === 'string') return e.details;
  return `The service answered ${status}.`;
}

/** Awaits an SDK call: its data, or an ApiError carrying the API's details. */
export async function call<T>(p: Promise<Answer<T>>): Promise<T> {
  const r = await p;
  if (r.error !== undefined || !r.response.ok) {
    const code = (r.error as { error?: string } | undefined)?.error ?? 'error';
    throw new ApiError(r.response.status, code, detailsOf(r.response.status, r.error));
  }
  return r.data as T;
}

/** What to show a person for any failure: the API's details, or the error's own message. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  const text = e instanceof Error ? e.message : String(e);
  // the SDK's sign-in errors embed the API's JSON error body: show its details
  const json = text.match(/\{.*\}$/)?.[0];
  if (json) {
    try {
      const body = JSON.parse(json) as { details?: string };
      if (body.details) return body.details;
    } catch {
      /* not JSON: the message itself */
    }
  }
  return text;
}

export const CATEGORIES = ['OVERALL', 'DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER', 'COMPLIANCE'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_NAMES: Record<Category, string> = {
  OVERALL: 'Overall',
  DEFI_LENDING: 'DeFi lending (credit history)',
  DEFI_TRADING: 'DeFi trading',
  GOVERNANCE: 'Governance',
  NFT: 'NFT',
  IDENTITY: 'Identity',
  SOCIAL: 'Social',
  DEVELOPER: 'Developer',
  COMPLIANCE: 'Compliance',
};
