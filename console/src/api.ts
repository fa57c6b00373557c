// The console's one door to the service: the project's SDK, on the same origin. Every call goes through
// `call`, which throws the SDK's error classes; `messageOf` shows a person the API's own `details` text.
import { createCredenceClient, CredenceError, errorFromResponse, type Category, type CredenceClient } from '@credence/sdk';

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

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an SDK call: its data, or the SDK's error class for the answer (CredenceError: `status`, `code`, and
 *  `details`, the API's own words). A body without `details` gets a plain sentence about the status. */
export async function call<T>(p: Promise<Answer<T>>): Promise<T> {
  const r = await p;
  if (r.error === undefined && r.response.ok) return r.data as T;
  // decisions.md: every error body is {error, details}; details names every offending field of a 400
  const body = (r.error && typeof r.error === 'object' ? r.error : {}) as { details?: unknown };
  const details = typeof body.details === 'string' ? body.details : `The service answered ${r.response.status}.`;
  throw errorFromResponse(r.response, { ...body, details });
}

/** What to show a person for any failure: the API's details, or the error's own message. */
export function messageOf(e: unknown): string {
  if (e instanceof CredenceError) return e.details;
  const text = e instanceof Error ? e.message : String(e);
  // an error whose message embeds the API's JSON error body: show its details
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

/** The categories in words (the SDK's CATEGORIES are the codes, in the API's order). */
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
