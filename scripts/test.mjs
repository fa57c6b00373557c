#!/usr/bin/env node
// `npm test`: the whole suite on embedded PGlite, then again on the PostgreSQL server and Redis when they are
// reachable. Without them the second run is skipped (and said so), unless CREDENCE_REQUIRE_SERVICES=1 (CI),
// where a missing service is a failure. Extra arguments go to vitest (e.g. a path filter).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';

const args = process.argv.slice(2);
const required = process.env.CREDENCE_REQUIRE_SERVICES === '1' || process.env.CREDENCE_REQUIRE_SERVICES === 'true';
const pgUrl = process.env.CREDENCE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.CREDENCE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const out = mkdtempSync(path.join(tmpdir(), 'credence-vitest-'));

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port) || (u.protocol.startsWith('redis') ? 6379 : 5432) });
    s.setTimeout(2000);
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

function run(name, env) {
  console.log(`\n=== ${name} ===`);
  const file = path.join(out, `${name.replace(/\W+/g, '-')}.json`);
  const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  let counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    counts = { passed: j.numPassedTests, failed: j.numFailedTests, skipped: j.numPendingTests + (j.numTodoTests ?? 0) };
  } catch {
    counts.failed += 1; // no report: the run itself broke
  }
  if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const runs = [];
const pglite = run('PGlite (embedded)', { CREDENCE_TEST_DATABASE_URL: '', CREDENCE_TEST_REDIS_URL: '' });
runs.push(pglite);

const [pgOk, redisOk] = await Promise.all([reachable(pgUrl), reachable(redisUrl)]);
if (pgOk && redisOk) {
  runs.push(run('PostgreSQL + Redis', { CREDENCE_TEST_DATABASE_URL: pgUrl, CREDENCE_TEST_REDIS_URL: redisUrl }));
} else {
  const missing = [!pgOk && `PostgreSQL (${pgUrl})`, !redisOk && `Redis (${redisUrl})`].filter(Boolean).join(' and ');
  if (required) {
    console.error(`\nCREDENCE_REQUIRE_SERVICES is set but ${missing} is not reachable: failing.`);
    runs.push({ passed: 0, failed: 1, skipped: 0 });
  } else {
    console.log(
      `\nSkipped the PostgreSQL + Redis run: ${missing} not reachable. Start them or set CREDENCE_TEST_DATABASE_URL / CREDENCE_TEST_REDIS_URL.`,
    );
  }
}

const total = runs.reduce((a, c) => ({ passed: a.passed + c.passed, failed: a.failed + c.failed, skipped: a.skipped + c.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
