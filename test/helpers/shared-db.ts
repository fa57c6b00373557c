// Several connections to ONE fresh PostgreSQL test database (two app instances of one deployment; each app
// closes its own connection). PGlite cannot be shared between instances: null when not on PostgreSQL.
import type { Db } from '../../src/platform/db/index.js';
import { secondConnection, testDatabase, usingPostgres } from './db.js';

export async function sharedPostgresDatabase(connections: number): Promise<Db[] | null> {
  if (!usingPostgres()) return null;
  const first = await testDatabase();
  const out: Db[] = [first];
  for (let i = 1; i < connections; i++) out.push(await secondConnection(first));
  return out;
}
