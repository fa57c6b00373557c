// Security headers for the HTML pages the API itself serves (the local checkout and KYC pages, the checkout done page),
// as the console's: a CSP allowing only this response's own inline style and script (by nonce) and this
// origin, never framed (frame-ancestors 'none' and X-Frame-Options DENY), no Referer (the checkout page's URL carries
// its token), no content sniffing.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** Headers every served page sends besides its CSP. */
export const PAGE_HEADERS = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * Sets the page headers on `reply` and returns the nonce its inline <style> and <script> must carry.
 * `formTargets`: origins besides this one a form on the page may post to or be redirected to after posting.
 */
export function securePage(reply: FastifyReply, formTargets: string[] = []): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
  reply.header('content-security-policy', csp).headers(PAGE_HEADERS);
  return nonce;
}

/** The origin of a URL a page may be redirected to after a form post; null when it has none (not http(s)). */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
