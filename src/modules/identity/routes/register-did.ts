// POST /identity/register: a did:credence DID for a wallet on a chain.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { RegisterBody, RegisterResponse } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function registerDid(s: App, { dids }: IdentityRouteDeps): void {
  s.post<{ Body: RegisterBody }>(
    '/identity/register',
    {
      config: { auth: 'public', idempotent: true },
      schema: {
        operationId: 'identity.registerDid',
        tags,
        summary: 'Register a DID for a wallet',
        description:
          'Creates `did:credence:<chainId>:<lowercase address>` with a W3C DID Core document (one EcdsaSecp256k1RecoveryMethod2020 ' +
          'verification method whose `blockchainAccountId` is `eip155:<chainId>:<address>`, used for authentication and assertions). ' +
          'Any EIP-155 chain id >= 1 is accepted (default 1); scores use the five supported chains. One DID per wallet and chain: ' +
          'registering again gives 409 whose `details` names the existing DID.',
        body: RegisterBody,
        response: { 201: RegisterResponse, ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const row = await dids.registerOrConflict(req.body.walletAddress, req.body.chainId);
      return reply.code(201).send({ id: row.id, did: row.did, createdAt: row.created_at });
    },
  );
}
