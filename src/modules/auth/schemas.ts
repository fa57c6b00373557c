import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';

export const NonceResponse = Type.Object({
  nonce: Type.String({ description: 'put this in the SIWE message; single use' }),
  expiresAt: Timestamp({ description: 'the nonce is refused after this time (5 minutes)' }),
});

const ENVIRONMENT_DOC =
  'live: real data. test: the sandbox, as with a cred_test_ key: every route answers test data only (test disputes, debt claims, ' +
  'webhooks, sandbox scores and sandbox proofs), a live record is 404, and routes without a sandbox answer 403.';

/** The environment a sign-in works in, as a test key or a live key would. */
export const SignInEnvironment = Type.Union([Type.Literal('live'), Type.Literal('test')], {
  title: 'SignInEnvironment',
  description: ENVIRONMENT_DOC,
});

export const VerifyBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 10_000, description: 'the EIP-4361 message, as signed' }),
    signature: Type.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 2_000, description: 'personal_sign signature of the message' }),
    environment: Type.Optional(
      Type.Union([Type.Literal('live'), Type.Literal('test')], {
        default: 'live',
        description: `the environment the token works in (default live). ${ENVIRONMENT_DOC}`,
      }),
    ),
  },
  {
    title: 'SignInRequest',
    examples: [
      {
        message:
          'api.credence.example wants you to sign in with your Ethereum account:\n0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045\n\nSign in to Credence\n\n' +
          'URI: https://api.credence.example\nVersion: 1\nChain ID: 1\nNonce: 8f3kq2LmZp0aB7xY\nIssued At: 2026-01-15T10:00:00.000Z',
        signature: `0x${'ab'.repeat(65)}`,
        environment: 'test',
      },
    ],
  },
);

export const VerifyResponse = Type.Object(
  {
    token: Type.String({ description: 'JWT for Authorization: Bearer <token>' }),
    tokenType: Type.Literal('Bearer'),
    expiresIn: Type.Integer({ description: 'seconds' }),
    address: Type.String({ description: 'the signed-in address, EIP-55 checksummed' }),
    roles: Type.Array(Type.String()),
    environment: { ...SignInEnvironment, description: 'the environment the token works in (its `env` claim is "test" for test)' },
  },
  {
    title: 'SignInResponse',
    examples: [
      {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlcyI6WyJ1c2VyIl0sImVudiI6InRlc3QifQ.c2lnbmF0dXJl',
        tokenType: 'Bearer',
        expiresIn: 3600,
        address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        roles: ['user'],
        environment: 'test',
      },
    ],
  },
);
