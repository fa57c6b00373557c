// A bulk job never holds the process: SIGTERM in the middle of one stops the server cleanly (exit 0, promptly), and
// the next start resumes the job where it stopped and completes it. Real processes, real sockets.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../../test/helpers/app.js';
import { childDatabaseEnv, createKeyOver, signInOver, startServer } from '../../../../test/helpers/server-process.js';

const address = () => '0x' + randomBytes(20).toString('hex');

describe('bulk jobs and SIGTERM', () => {
  it('SIGTERM during a job exits cleanly; the next start resumes the job and completes it', async () => {
    const db = await childDatabaseEnv();
    const first = await startServer({ env: { ...db, CREDENCE_SANCTIONS_SNAPSHOT: 'false' } });
    let second: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      const auth = await signInOver(first.url, first.admin);
      const key = await createKeyOver(first.url, auth, 'Enterprise');
      const addresses = Array.from({ length: 600 }, address);
      const created = await fetch(`${first.url}/api/v1/reputation/batch-jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ addresses, category: 'OVERALL' }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const status = async (url: string) =>
        (await (
          await fetch(`${url}/api/v1/reputation/batch-jobs/${id}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(20_000) })
        ).json()) as {
          status: string;
          processed: number;
        };
      // Under way: some chunks stored, far from done. /health answers meanwhile.
      const mid = await eventually(
        async () => {
          const s = await status(first.url);
          return s.processed > 0 ? s : null;
        },
        { timeoutMs: 180_000, intervalMs: 100 },
      );
      expect(mid.processed).toBeLessThan(addresses.length);
      expect((await fetch(`${first.url}/health`, { signal: AbortSignal.timeout(20_000) })).status).toBe(200);

      expect(await first.stop('SIGTERM'), first.output()).toBe(0);
      expect(first.output()).toMatch(/shutting down/);

      // Same data (directory or database), a new process: the job goes on from where it stopped.
      second = await startServer({ dataDir: first.dataDir, admin: first.admin, env: { ...db, CREDENCE_SANCTIONS_SNAPSHOT: 'false' } });
      const atRestart = await status(second.url);
      expect(atRestart.processed).toBeGreaterThanOrEqual(mid.processed);
      const done = await eventually(
        async () => {
          const s = await status(second!.url);
          return s.status === 'completed' ? s : null;
        },
        { timeoutMs: 600_000, intervalMs: 500 },
      );
      expect(done.processed).toBe(addresses.length);
      const results = await fetch(`${second.url}/api/v1/reputation/batch-jobs/${id}/results`, { headers: { 'x-api-key': key } });
      const lines = (await results.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { address: string });
      expect(lines.map((l) => l.address.toLowerCase())).toEqual(addresses);
      expect(await second.stop('SIGTERM'), second.output()).toBe(0);
    } finally {
      await first.stop('SIGKILL');
      await second?.stop('SIGKILL');
    }
  }, 1_800_000);
});
