// The README's quick start with the SDK and viem only, run as an integrator runs it: a separate Node process
// against a listening server (sign-in, key, score, batch, proof verified offline, every webhook with `for await`,
// a webhook delivery checked by constructEvent). The process must exit by itself: nothing (snarkjs's workers,
// the receiver) may keep it alive.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWallet, createTestApp } from '../helpers/app.js';
import { freePort } from '../helpers/ports.js';
import type { App } from '../../src/platform/http/types.js';

const root = path.resolve(import.meta.dirname, '../..');
let app: App;
let baseUrl: string;
beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // the sign-in domain is the host of the public URL, as in a deployment
  app = await createTestApp({ config: { port, publicUrl: baseUrl, siweDomain: null } });
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(() => app.close());

function run(args: string[], deadlineMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not exit within ${deadlineMs} ms (something keeps the process alive)\n${stdout}\n${stderr}`));
    }, deadlineMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('quick start with the SDK (viem only)', () => {
  it('signs in, makes a key, scores, batches, verifies a proof offline, receives a webhook through constructEvent, and exits by itself', async () => {
    const out = await run(['sdk/examples/viem-quickstart.ts', baseUrl, adminWallet.privateKey, 'Starter'], 150_000);
    expect(out.code, out.stderr).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.apiKey).toMatch(/^cred_live_/);
    expect(r.score).toMatchObject({ category: 'OVERALL', score: expect.any(Number) });
    expect(r.batch.count).toBe(2);
    expect(r.verified).toMatchObject({ valid: true, proofType: 'ScoreAboveThreshold', subject: adminWallet.address });
    expect(r.event).toMatchObject({ event: 'webhook.test', data: { webhookId: expect.any(String) } });
    expect(r.hooks).toHaveLength(1);
  }, 180_000);
});
