// Live or test, decided once per request by the auth plugin from the credentials (a cred_test_ key, or a JWT signed
// in for the test environment) and readable by any repo through the async context, so every query of an
// environment-scoped table (disputes, debt claims, webhooks) filters by it without each service passing it along.
// Outside a request (workers, startup) the environment is live.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Environment = 'live' | 'test';

const store = new AsyncLocalStorage<Environment>();

/** The environment of the request being served; 'live' outside any request. */
export const currentEnvironment = (): Environment => store.getStore() ?? 'live';

/** Runs fn (and everything it starts) in the given environment. */
export const runInEnvironment = <T>(env: Environment, fn: () => T): T => store.run(env, fn);
