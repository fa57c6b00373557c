// The W3C Bitstring Status List credentials, served without a key at the stable URL issued credentials name in
// credentialStatus.statusListCredential (CREDENCE_PUBLIC_URL/api/v1/identity/status-lists/{listId}).
import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/types.js';
import { errorResponses, thousands } from '../../platform/openapi.js';
import { notFound } from '../../platform/errors.js';
import { STATUS_LIST_SIZE, type StatusLists } from './status-list.js';

/** Verifiers may cache the list this long: a revocation is visible to them within it. */
export const STATUS_LIST_MAX_AGE_S = 30;

export function registerStatusListRoutes(app: App, lists: StatusLists) {
  app.register(
    async (s) => {
      s.get<{ Params: { listId: number } }>(
        '/identity/status-lists/:listId',
        {
          config: { auth: 'public' },
          schema: {
            operationId: 'identity.getStatusList',
            tags: ['Identity'],
            summary: 'A credential status list (W3C Bitstring Status List)',
            description:
              'The status list credential that issued credentials point to (`credentialStatus.statusListCredential`): a VC-JWT (ES256K, signed by ' +
              "the service's issuer like the credentials themselves, `Content-Type: application/vc+jwt`) of type `BitstringStatusListCredential` " +
              `whose credentialSubject (type \`BitstringStatusList\`, statusPurpose \`revocation\`) carries \`encodedList\`: the multibase base64url ` +
              `(prefix \`u\`) of the GZIP-compressed bitstring of ${thousands(STATUS_LIST_SIZE)} entries, index 0 the left-most bit. ` +
              "The bit at a credential's `statusListIndex` is 1 once the credential is revoked. No API key (limited per client IP). " +
              `\`Cache-Control: public, max-age=${STATUS_LIST_MAX_AGE_S}\`, with an ETag (If-None-Match gives 304) and Last-Modified (the list's last change).`,
            params: Type.Object({
              listId: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'the list number in statusListCredential' }),
            }),
            response: {
              200: {
                description: 'the status list credential (a JWT)',
                content: { 'application/vc+jwt': { schema: Type.String({ description: 'compact JWS' }) } },
              },
              304: Type.Null({ description: 'not modified since the ETag sent in If-None-Match' }),
              ...errorResponses(404),
            },
          },
        },
        async (req, reply) => {
          const c = await lists.credential(req.params.listId);
          if (!c) throw notFound(`No status list ${req.params.listId} exists.`);
          reply
            .header('Cache-Control', `public, max-age=${STATUS_LIST_MAX_AGE_S}`)
            .header('ETag', c.etag)
            .header('Last-Modified', c.lastModified.toUTCString());
          if (req.headers['if-none-match'] === c.etag) return reply.code(304).send();
          return reply.type('application/vc+jwt').send(c.jwt);
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
