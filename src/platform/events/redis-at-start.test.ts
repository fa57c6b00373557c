// A Redis unreachable when the process starts (REDIS_URL=redis://127.0.0.1:1) must not take the process down: the
// first SUBSCRIBE of the event bus failed with MaxRetriesPerRequestError, unhandled, a second after start. The
// README promises the instance serves with in-process limits until Redis is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/app.js';
import { childDatabaseEnv, startServer, type ServerProcess } from '../../../test/helpers/server-process.js';

describe('Redis unreachable at start', () => {
  let srv: ServerProcess;
  beforeAll(async () => {
    const db = await childDatabaseEnv();
    srv = await startServer({ env: { ...db, REDIS_URL: 'redis://127.0.0.1:1', CREDENCE_SANCTIONS_SNAPSHOT: 'false' } });
  }, 300_000);
  afterAll(async () => {
    if (srv) expect(await srv.stop(), srv.output()).toBe(0);
  });

  it('keeps serving after the Redis commands issued at start have given up', async () => {
    // The point where the process used to die: the start-up SUBSCRIBE gives up (MaxRetriesPerRequestError).
    let exited = false;
    void srv.exited.then(() => (exited = true));
    await eventually(() => exited || /MaxRetriesPerRequestError/.test(srv.output()), { timeoutMs: 60_000 });
    expect(exited, srv.output()).toBe(false);
    // Requests that go through the limiter, the quota and the caches are answered from in-process state.
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
    const ready = await fetch(`${srv.url}/health/ready`);
    expect([200, 503]).toContain(ready.status);
    expect(((await ready.json()) as { checks: { redis: { status: string } } }).checks.redis.status).toBe('down');
    for (let i = 0; i < 5; i++) expect((await fetch(`${srv.url}/api/v1/auth/nonce`)).status).toBe(200);
    expect(exited, srv.output()).toBe(false);
  });
});
