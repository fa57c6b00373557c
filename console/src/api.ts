// The console's one door to the service: the project's SDK, on the same origin. Every call goes through
// `call`, which turns the API's error body into an Error whose message is the API's own `details` text.
import { createCredenceClient, type CredenceClient } from '@credence/sdk';

export const client: CredenceClient = createCredenceClient({ baseUrl: location.origin });

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
