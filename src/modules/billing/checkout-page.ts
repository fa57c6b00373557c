// HTML of the built-in local payment provider's checkout page (used when Stripe is not configured).
import { limitsOf } from './tiers.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `confirmAction`: where the button posts; it carries the creator's token when the page was opened with it. */
export function checkoutPage(s: {
  id: string;
  tier: string;
  priceUsd: number | null;
  status: string;
  cancelUrl: string | null;
  confirmAction: string;
  nonce: string;
}): string {
  const done = s.status !== 'open';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Credence checkout</title>
<style nonce="${esc(s.nonce)}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a2e}
.card{border:1px solid #ddd;border-radius:12px;padding:2rem}button{font-size:1rem;padding:.7rem 1.4rem;border-radius:8px;border:0;background:#4f46e5;color:#fff;cursor:pointer}
button:disabled{background:#999}.muted{color:#666;font-size:.9rem}</style></head>
<body><div class="card">
<h1>Upgrade to ${esc(s.tier)}</h1>
<p><strong>${s.priceUsd === null ? 'Contact sales' : `$${s.priceUsd} per month`}</strong></p>
<p class="muted">Local payment provider: no card is charged. Confirming completes the payment exactly as the payment processor would, with a signed <code>checkout.session.completed</code> event.</p>
<p id="status">${done ? 'This checkout is already completed.' : ''}</p>
<form id="pay-form" method="post" action="${esc(s.confirmAction)}"><button id="pay" type="submit" ${done ? 'disabled' : ''}>Confirm payment</button></form>
${s.cancelUrl ? `<p><a href="${esc(s.cancelUrl)}">Cancel</a></p>` : ''}
</div>
<script nonce="${esc(s.nonce)}">
// the token stays in the form's action only: not in the address bar, history or bookmarks
if (location.search) history.replaceState(null, '', location.pathname);
document.getElementById('pay-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const btn = document.getElementById('pay'); btn.disabled = true;
  const res = await fetch(ev.target.action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = await res.json().catch(() => ({}));
  if (res.ok) { document.getElementById('status').textContent = 'Payment complete: your key is now ${esc(s.tier)}.'; if (body.redirectTo) location.href = body.redirectTo; }
  else { document.getElementById('status').textContent = body.details || 'Payment failed.'; btn.disabled = false; }
});
</script></body></html>`;
}

export const donePage = (
  ok: boolean,
  nonce: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Credence checkout</title>
<style nonce="${esc(nonce)}">body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto}</style></head>
<body><h1>${ok ? 'Payment received' : 'Checkout cancelled'}</h1>
<p>${ok ? 'Your API key has been upgraded. Check it with GET /api/v1/billing/usage.' : 'Nothing was charged.'}</p></body></html>`;

/** The page of a local checkout session; the creator's `token` (from the checkout url) rides on its confirm action. */
export function localCheckoutPage(
  cs: { id: string; tier: string; status: string; cancel_url: string | null },
  token: string | undefined,
  nonce: string,
): string {
  const confirmAction = `/api/v1/billing/checkout/local/${encodeURIComponent(cs.id)}/confirm${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  return checkoutPage({
    id: cs.id,
    tier: cs.tier,
    priceUsd: limitsOf(cs.tier).priceUsd,
    status: cs.status,
    cancelUrl: cs.cancel_url,
    confirmAction,
    nonce,
  });
}
