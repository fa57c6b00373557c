// Storage: which database, where the embedded one keeps its files, and the key (AES-256-GCM) that encrypts what
// it stores secret (webhook secrets, birth dates).
import { ConfigError, hexKey, str, type Env } from './env.js';

export interface DatabaseSettings {
  /** unset: embedded PGlite in dataDir; `pglite://memory`: in-memory PGlite; `postgres://...`: a server */
  databaseUrl: string | null;
  dataDir: string;
  /** unset: generated into the data dir */
  encryptionKey: string | null;
}

export function databaseSettings(env: Env): DatabaseSettings {
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl && !/^(postgres(ql)?:\/\/|pglite:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres://, postgresql:// or pglite://');
  }
  return {
    databaseUrl,
    dataDir: str(env, 'CREDENCE_DATA_DIR') ?? './data',
    encryptionKey: hexKey(env, 'CREDENCE_ENCRYPTION_KEY'),
  };
}
