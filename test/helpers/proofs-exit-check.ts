// Run as a child process by exit.test.ts: boots the real app on an in-memory database, proves (starting the
// prover threads and the verifier curve), closes the app, and then must exit on its own: nothing left running.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../../src/app.js';
import { wrapPglite } from '../../src/platform/db/index.js';
import { loadConfig } from '../../src/platform/config.js';

const config = {
  ...loadConfig({}),
  databaseUrl: 'pglite://memory',
  dataDir: mkdtempSync(path.join(tmpdir(), 'credence-exit-')),
  logLevel: 'silent',
};
// the test run's migrated database dump, when given, saves creating and migrating one here
const dump = process.env.CREDENCE_EXIT_CHECK_DUMP;
const db = dump ? wrapPglite(await PGlite.create({ loadDataDir: new Blob([readFileSync(dump)]) })) : undefined;
const app = await buildApp(config, { logger: false, secrets: {}, db });
await app.ready();
const proofs = app.ctx.services.proofs!;
const address = '0x00000000000000000000000000000000000000aa';
const c = await proofs.commitBirthDate(address, 19800101);
const r = await proofs.proveAge({ address, birthDate: 19800101, salt: c.salt, minimumAge: 18 });
const v = await app.inject({ method: 'POST', url: '/api/v1/reputation/verify', payload: { proof: r.proof } });
console.log(`proved ${r.proof.length} chars; verify without key: ${v.statusCode}`);
await app.close();
console.log('closed');
