// Wires the scores hub (hub role): SignalR JSON protocol at /hubs/scores on the API's own HTTP server. Score
// changes arrive as `score.updated` on the event bus, which REDIS_URL fans out to every instance.
import type { Module } from '../../platform/http/types.js';
import { SCORE_UPDATED, type ScoreChange } from '../scoring/contracts.js';
import { createHub, type ScoreUpdatedArgs } from './hub.js';
import { registerHubRoutes } from './routes.js';
import { createTokenSigner } from './token.js';

/**
 * Sandbox score events for test connections only (a test key's triggered score change, `credence trigger`): publish
 * `{address, category, oldScore, newScore, keyId?}` here, never on SCORE_UPDATED, whose other listeners (proof
 * commitments, caches) act on live scores. With `keyId`, only the connections opened with that key receive it.
 */
export const SANDBOX_SCORE_UPDATED = 'sandbox.score.updated';

export const hubModule: Module = {
  name: 'hub',
  register(app, ctx) {
    if (!ctx.config.roles.includes('hub')) return;
    const hub = createHub({
      keepAliveMs: ctx.config.hubKeepAliveSeconds * 1000,
      clientTimeoutMs: ctx.config.hubClientTimeoutSeconds * 1000,
      log: ctx.log,
    });
    // One key on every instance (CREDENCE_HUB_TOKEN_KEY), checked at start: negotiate on A, connect on B.
    const tokens = createTokenSigner(ctx.config.hubTokenKey ?? ctx.secret('hub-token-key'));
    registerHubRoutes(app, ctx, hub, tokens);
    // Each event goes to the connections of its environment: score changes are live unless the event says
    // `environment: "test"` (a sandbox event); a test debt claim's notice goes to test connections only.
    const off = ctx.bus.subscribe<ScoreChange & { environment?: 'live' | 'test' }>(
      SCORE_UPDATED,
      (c) => void hub.publish(c, c.environment === 'test' ? 'test' : 'live'),
    );
    ctx.onClose(off);
    // a debt claim filed against a subscribed wallet: the debtor is told while it can still dispute (debt-claims)
    const offClaims = ctx.bus.subscribe<{ address: string; data: unknown; environment?: 'live' | 'test' }>(
      'debt_claim.filed',
      (e) => void hub.publishTo(e.address, 'DebtClaimFiled', e.data, e.environment === 'test' ? 'test' : 'live'),
    );
    ctx.onClose(offClaims);
    const offSandbox = ctx.bus.subscribe<ScoreUpdatedArgs & { keyId?: string }>(
      SANDBOX_SCORE_UPDATED,
      (e) => void hub.publish(e, 'test', e.keyId),
    );
    ctx.onClose(offSandbox);
  },
};
