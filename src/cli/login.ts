// `credence login`: Sign-In with Ethereum with a local key (a private key, or an encrypted JSON keystore), through
// the SDK's signIn; the session (a JWT) is saved for the API URL in the CLI's config file.
import { readFileSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { AuthenticationError, createCredenceClient, signIn } from './sdk.js';
import { CliError, apiUrlOf, configFile, updateProfile } from './session.js';

async function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) throw new CliError('the keystore password: set CREDENCE_KEYSTORE_PASSWORD (no terminal to ask on)', 2);
  // raw mode (no echo) before the question: an answer typed the moment the question shows is never echoed
  stdin.setRawMode(true);
  process.stderr.write(question);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (c: string) => {
      for (const ch of c) {
        if (ch === '\r' || ch === '\n') {
          done();
          return resolve(out);
        }
        if (ch === '\u0003') {
          done();
          return reject(new CliError('cancelled', 130));
        }
        if (ch === '\u007f') out = out.slice(0, -1);
        else out += ch;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}

async function privateKeyOf(flags: Record<string, unknown>): Promise<`0x${string}`> {
  const given = (flags['private-key'] as string | undefined) ?? (flags.keystore ? undefined : process.env.CREDENCE_PRIVATE_KEY);
  if (given) {
    const k = given.startsWith('0x') ? given : `0x${given}`;
    if (!/^0x[0-9a-fA-F]{64}$/.test(k)) throw new CliError('the private key must be 32 bytes of hex (0x + 64 hex digits)', 2);
    return k as `0x${string}`;
  }
  if (typeof flags.keystore === 'string') {
    let json: string;
    try {
      json = readFileSync(flags.keystore, 'utf8');
    } catch (e) {
      throw new CliError(`--keystore: ${(e as Error).message}`, 2);
    }
    const password = process.env.CREDENCE_KEYSTORE_PASSWORD ?? (await promptHidden(`password for ${flags.keystore}: `));
    const { Wallet } = await import('ethers');
    try {
      return (await Wallet.fromEncryptedJson(json, password)).privateKey as `0x${string}`;
    } catch (e) {
      throw new CliError(`--keystore: cannot decrypt (${(e as Error).message})`, 1);
    }
  }
  throw new CliError('credence login needs a key: --private-key, CREDENCE_PRIVATE_KEY or --keystore <file>', 2);
}

export async function runLogin(flags: Record<string, unknown>) {
  const apiUrl = apiUrlOf(flags['api-url']);
  const account = privateKeyToAccount(await privateKeyOf(flags));
  const client = createCredenceClient({ baseUrl: apiUrl, timeoutMs: 20_000 });
  const chainId = flags['chain-id'] === undefined ? 1 : Number(flags['chain-id']);
  if (!Number.isInteger(chainId) || chainId < 1) throw new CliError('--chain-id must be a chain id', 2);
  const attempt = (domain?: string) =>
    signIn(client, account, { chainId, statement: 'Sign in to Credence (credence CLI)', ...(domain ? { domain } : {}) });
  let r: Awaited<ReturnType<typeof signIn>>;
  try {
    r = await attempt(flags.domain as string | undefined);
  } catch (e) {
    // The service names its sign-in domain when another was used: sign once more for that one.
    const named =
      e instanceof AuthenticationError && !flags.domain ? /domain must be ([^\s,]+?)[.,]?(?:\s|$)/.exec(e.details)?.[1] : undefined;
    if (!named) throw e;
    r = await attempt(named);
  }
  const expiresAt = new Date(Date.now() + r.expiresIn * 1000).toISOString();
  updateProfile(apiUrl, (p) => ({ ...p, token: r.token, tokenExpiresAt: expiresAt, address: r.address }), { makeDefault: true });
  console.log(
    `logged in to ${apiUrl} as ${r.address}${r.roles.length ? ` (${r.roles.join(', ')})` : ''}; session until ${expiresAt}, saved in ${configFile()}`,
  );
}
