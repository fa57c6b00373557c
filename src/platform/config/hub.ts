// The SignalR-compatible hub: who may connect, keep-alive, and the key its connection tokens share across instances.
import { bool, int, secretSetting, type Env } from './env.js';

export interface HubSettings {
  hubRequireKey: boolean;
  /** Hub keep-alive: the server pings every N seconds; a client silent for the timeout is closed. */
  hubKeepAliveSeconds: number;
  hubClientTimeoutSeconds: number;
  /** HMAC key of the hub's connection tokens; must match on every instance (negotiate on A, connect on B). */
  hubTokenKey: string | null;
}

export function hubSettings(env: Env): HubSettings {
  return {
    hubRequireKey: bool(env, 'CREDENCE_HUB_REQUIRE_KEY', false),
    hubKeepAliveSeconds: int(env, 'CREDENCE_HUB_KEEPALIVE_SECONDS', 15, 1, 3600),
    hubClientTimeoutSeconds: int(env, 'CREDENCE_HUB_CLIENT_TIMEOUT_SECONDS', 30, 2, 7200),
    hubTokenKey: secretSetting(env, 'CREDENCE_HUB_TOKEN_KEY'),
  };
}
