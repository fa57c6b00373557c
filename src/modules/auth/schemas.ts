import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../platform/http/schemas.js';

export const NonceResponse = Type.Object({
  nonce: Type.String({ description: 'put this in the SIWE message; single use' }),
  expiresAt: Timestamp({ description: 'the nonce is refused after this time (5 minutes)' }),
});

export const VerifyBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 10_000, description: 'the EIP-4361 message, as signed' }),
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: 2_000, description: 'personal_sign signature of the message' }),
});

export const VerifyResponse = Type.Object({
  token: Type.String({ description: 'JWT for Authorization: Bearer <token>' }),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'seconds' }),
  address: Type.String({ description: 'the signed-in address, EIP-55 checksummed' }),
  roles: Type.Array(Type.String()),
});
