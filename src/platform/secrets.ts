// Secrets: taken from settings, or generated once and kept in the data dir (mode 0600).
// Also the symmetric cipher used for secrets at rest (webhook secrets, birth dates): AES-256-GCM.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function loadOrCreateSecret(dataDir: string, name: string, generate: () => string = () => randomBytes(32).toString('hex')): string {
  const dir = path.resolve(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = generate();
  writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
  return value;
}

export interface Cipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createCipher(keyHex: string): Cipher {
  const key = Buffer.from(keyHex.replace(/^0x/, ''), 'hex');
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
    },
    decrypt(sealed) {
      const [v, iv, tag, ct] = sealed.split(':');
      if (v !== 'v1') throw new Error('unknown ciphertext version');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      d.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64')), d.final()]).toString('utf8');
    },
  };
}
