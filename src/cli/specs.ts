// The integrator commands' flags and help (cli/args.ts parses against them). Kept apart from the commands'
// code, which loads the SDK, so `credence --help` and `credence serve` load none of it.
import type { CommandSpec } from './args.js';
// the category list alone (no import of its own): the help loads none of scoring
import { CATEGORIES } from '../modules/scoring/categories.js';

export { CATEGORIES };

export const DEFAULT_API_URL = 'http://127.0.0.1:8080';
export const EVENTS = ['score.updated'];

const API_FLAGS = {
  'api-url': {
    type: 'string',
    value: '<url>',
    description: `the Credence API (CREDENCE_API_URL; default: the last one logged in to, else ${DEFAULT_API_URL})`,
  },
} as const;
const KEY_FLAGS = {
  ...API_FLAGS,
  'api-key': {
    type: 'string',
    value: '<key>',
    description: 'API key (CREDENCE_API_KEY; default: the key saved by `credence keys create`)',
  },
} as const;
const JSON_FLAG = { json: { type: 'boolean', description: 'print the JSON answer' } } as const;
const ID = { min: 1, max: 1 };

export const loginSpec: CommandSpec = {
  summary: 'sign in with Ethereum (SIWE) using a local key; saves the session for the API URL',
  flags: {
    ...API_FLAGS,
    'private-key': {
      type: 'string',
      value: '<0x...>',
      description: 'the wallet key (or CREDENCE_PRIVATE_KEY; prefer the variable: flags show in process lists)',
    },
    keystore: {
      type: 'string',
      value: '<file>',
      description: 'an encrypted JSON keystore; its password from CREDENCE_KEYSTORE_PASSWORD, else asked',
    },
    domain: {
      type: 'string',
      value: '<host>',
      description: "the service's sign-in domain (default: the API URL's host, else the one the service names)",
    },
    'chain-id': { type: 'string', value: '<id>', description: 'the chain id in the message (default 1)' },
  },
  notes: `The session is stored in ${'$CREDENCE_CONFIG_DIR'}/config.json (default ~/.config/credence), mode 0600.`,
};

export const keysSpec: CommandSpec = {
  summary: 'API keys of the logged-in wallet: create, list, use, rotate, revoke',
  subcommands: {
    create: {
      summary: 'create a key (--test: a cred_test_ key with sandbox data) and save it as the key in use',
      flags: {
        ...API_FLAGS,
        test: { type: 'boolean', description: 'a test key (cred_test_...): deterministic sandbox scores, no quota, test events' },
        org: { type: 'string', value: '<name>', description: 'organization name (default "Credence CLI")' },
        email: { type: 'string', value: '<email>', description: 'contact email (required for live keys)' },
        tier: { type: 'string', value: '<tier>', description: 'Free (default); paid tiers need an admin session' },
        'expires-at': { type: 'string', value: '<ISO time>', description: 'the key stops working then' },
        'no-save': { type: 'boolean', description: 'do not save it (nor use it)' },
        use: { type: 'boolean', description: 'make it the key in use even when a key of the other environment is in use' },
        ...JSON_FLAG,
      },
      notes:
        'The new key becomes the key in use when none is, or when the key in use has the same environment; a key of the other environment (a live key while a test key is in use) is saved and the key in use stays, unless --use. credence keys use switches.',
    },
    list: { summary: "list the wallet's keys (never the keys themselves)", flags: { ...API_FLAGS, ...JSON_FLAG } },
    use: {
      summary: 'make a key the one the other commands use (a key this CLI created or rotated, or its secret)',
      args: '<key id|prefix|secret>',
      positionals: ID,
      flags: { ...API_FLAGS },
    },
    rotate: {
      summary: 'issue a new secret for a key; the old one works for the grace period',
      args: '<key id|prefix>',
      positionals: ID,
      flags: {
        ...API_FLAGS,
        'grace-period': {
          type: 'string',
          value: '<seconds>',
          description: 'how long the previous secret keeps working (default 86400, 0 ends it now)',
        },
        ...JSON_FLAG,
      },
    },
    revoke: { summary: 'revoke a key at once', args: '<key id|prefix>', positionals: ID, flags: { ...API_FLAGS } },
  },
};

export const scoreSpec: CommandSpec = {
  summary: "a wallet's reputation scores (an address or an ENS name)",
  args: '<address|ens>',
  positionals: { min: 1, max: 1 },
  flags: {
    ...KEY_FLAGS,
    category: { type: 'string', value: '<category>', description: `one category: ${CATEGORIES.join(', ')}` },
    explain: { type: 'boolean', description: 'list the factors behind each score' },
    json: { type: 'boolean', description: 'print the JSON answer' },
  },
};

export const proofSpec: CommandSpec = {
  summary: 'Groth16 proofs: verify one offline',
  subcommands: {
    verify: {
      summary: 'verify a proof file offline (ABI hex, a prove answer, or snarkjs {proof, publicSignals}); exit 1 when invalid',
      args: '<file>',
      positionals: { min: 1, max: 1 },
      flags: {
        ...API_FLAGS,
        keys: {
          type: 'string',
          value: '<file>',
          description: 'verification keys (GET /api/v1/proofs/verification-keys); default: fetched once from the API and kept',
        },
        json: { type: 'boolean', description: 'print the result as JSON' },
      },
    },
  },
};

export const webhooksSpec: CommandSpec = {
  summary: 'webhooks: listen (forward deliveries to a local URL)',
  subcommands: {
    listen: {
      summary: 'receive deliveries here through a temporary webhook and forward them to a local URL',
      flags: {
        ...KEY_FLAGS,
        'forward-to': {
          type: 'string',
          value: '<url>',
          description: 'the local receiver, e.g. http://127.0.0.1:3000/webhooks (without it: print and acknowledge)',
        },
        address: { type: 'string', value: '<address>', description: 'only events of this wallet' },
        'print-json': { type: 'boolean', description: 'also print each event body' },
      },
      notes:
        'With a test key: test events (credence trigger score.updated); with a live key (Starter and above): live score events. Ctrl-C removes the temporary webhook and says so.',
    },
  },
};

export const triggerSpec: CommandSpec = {
  summary: "send a test event (score.updated) to the test key's webhooks and listeners",
  args: '<event>',
  positionals: { min: 1, max: 1 },
  flags: {
    ...KEY_FLAGS,
    address: { type: 'string', value: '<address>', description: "the wallet whose sandbox score changes (default: the key owner's)" },
    category: { type: 'string', value: '<category>', description: 'the category (default OVERALL)' },
    json: { type: 'boolean', description: 'print the JSON answer' },
  },
  notes: `Events: ${EVENTS.join(', ')}. Needs a test key (credence keys create --test).`,
};
