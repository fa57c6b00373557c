// DID resolution without an API key at the Universal Resolver driver path, GET /1.0/identifiers/{did}, in the W3C
// DID Resolution result format, so stock resolvers (a Universal Resolver deployment, did-resolver with a small
// driver) can resolve did:credence. It has its own per-IP limit, apart from the API's.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { AppContext } from '../../platform/context.js';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { ErrorBody } from '../../platform/http/schemas.js';
import { parseDid } from './did.js';
import type { DidService } from './service.js';

export const RESOLUTION_CONTEXT = 'https://w3id.org/did-resolution/v1';
export const RESOLUTION_MEDIA_TYPE = 'application/ld+json;profile="https://w3id.org/did-resolution"';
export const DID_LD_JSON = 'application/did+ld+json';

type ResolutionError = 'invalidDid' | 'notFound' | 'methodNotSupported';
// Statuses of the DID Resolution HTTP(S) binding (and the Universal Resolver): 410 for a deactivated DID.
const STATUS: Record<ResolutionError, number> = { invalidDid: 400, notFound: 404, methodNotSupported: 501 };
// The API's error codes, so the body is also the service's usual error shape.
const API_CODE: Record<ResolutionError, string> = {
  invalidDid: 'validation_failed',
  notFound: 'not_found',
  methodNotSupported: 'not_found',
};

const Obj = (description: string) => Type.Object({}, { additionalProperties: true, description });
const ResolutionResult = Type.Object(
  {
    '@context': Type.String({ description: RESOLUTION_CONTEXT }),
    didDocument: Type.Union([Obj('the W3C DID Core document'), Type.Null()]),
    didResolutionMetadata: Type.Object(
      {
        contentType: Type.Optional(Type.String({ description: `${DID_LD_JSON} on success` })),
        error: Type.Optional(Type.String({ description: 'invalidDid, notFound or methodNotSupported' })),
        retrieved: Type.Optional(Type.String({ format: 'date-time' })),
      },
      { additionalProperties: true },
    ),
    didDocumentMetadata: Type.Object(
      {
        created: Type.Optional(Type.String({ format: 'date-time' })),
        updated: Type.Optional(Type.String({ format: 'date-time' })),
        deactivated: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
    error: Type.Optional(Type.String({ description: "on errors: the service's error code" })),
    details: Type.Optional(Type.String({ description: 'on errors: a sentence saying what went wrong' })),
  },
  { $id: 'DidResolutionResult', title: 'DID resolution result' },
);

const resolutionError = (description: string) => ({
  description,
  content: { 'application/ld+json': { schema: ResolutionResult }, 'application/json': { schema: ErrorBody } },
});

/** A client asking for the DID document alone (Accept: application/did+ld+json or application/did+json). */
function wantsDocumentOnly(accept: string | undefined): string | null {
  if (!accept || accept.includes('profile="https://w3id.org/did-resolution"')) return null;
  if (accept.includes(DID_LD_JSON)) return DID_LD_JSON;
  if (accept.includes('application/did+json')) return 'application/did+json';
  return null;
}

export function registerResolverRoutes(app: App, ctx: AppContext, dids: DidService) {
  const fail = (reply: FastifyReply, error: ResolutionError, details: string) =>
    reply.code(STATUS[error]).type(RESOLUTION_MEDIA_TYPE).send({
      '@context': RESOLUTION_CONTEXT,
      didDocument: null,
      didResolutionMetadata: { error },
      didDocumentMetadata: {},
      error: API_CODE[error],
      details,
    });

  async function limit(req: FastifyRequest, reply: FastifyReply) {
    const r = await ctx.limiter.hit(`did-resolver:${req.ip}`, ctx.config.didResolverRateLimit);
    reply.header('X-RateLimit-Limit', r.limit).header('X-RateLimit-Remaining', r.remaining).header('X-RateLimit-Reset', r.resetAt);
    if (!r.allowed) {
      reply.header('Retry-After', r.retryAfter).header('X-RateLimit-Retry-After', r.retryAfter);
      throw new AppError(
        'rate_limited',
        `DID resolution is limited to ${r.limit} requests per second per client address; retry in ${r.retryAfter} s.`,
      );
    }
  }

  app.get<{ Params: { did: string } }>(
    '/1.0/identifiers/:did',
    {
      // Keyless by design; limited per client IP by its own setting (CREDENCE_DID_RESOLVER_RATE_LIMIT), not the API's.
      config: { auth: 'none' },
      onRequest: limit,
      schema: {
        operationId: 'identity.resolveDidDocument',
        tags: ['Identity'],
        summary: 'Resolve a DID (Universal Resolver driver, no API key)',
        description:
          'W3C DID Resolution over HTTP(S), at the path a Universal Resolver driver serves: `{"@context": "https://w3id.org/did-resolution/v1", ' +
          'didDocument, didResolutionMetadata: {contentType}, didDocumentMetadata: {created, updated, deactivated?}}` with content type ' +
          '`application/ld+json;profile="https://w3id.org/did-resolution"`. With `Accept: application/did+ld+json` (or `application/did+json`) ' +
          'the answer is the DID document alone. Errors are resolution results too, with `didResolutionMetadata.error` and the status the ' +
          'binding gives it: `invalidDid` 400, `notFound` 404, `methodNotSupported` 501 (a DID of another method); a deactivated DID is ' +
          'answered 410 with its document and `deactivated: true`. They also carry the usual `error`/`details`. No API key; limited per client IP ' +
          '(CREDENCE_DID_RESOLVER_RATE_LIMIT per second, 429 with Retry-After). Accepts `did:credence:0x...` (chain 1) and any hex case; the DID ' +
          'may be percent-encoded.',
        params: Type.Object({
          did: Type.String({ description: 'the DID to resolve, e.g. did:credence:1:0xd8da6bf26964af9d7eed9e03e53415d37aa96045' }),
        }),
        response: {
          200: {
            description: 'the resolution result, or with Accept: application/did+ld+json the DID document alone',
            content: {
              'application/ld+json': { schema: ResolutionResult },
              [DID_LD_JSON]: { schema: Obj('the DID document') },
              'application/did+json': { schema: Obj('the DID document') },
            },
          },
          400: resolutionError('invalidDid: not a DID, or not a valid did:credence identifier'),
          404: resolutionError('notFound: no such DID is registered'),
          410: resolutionError('the DID is deactivated: its document with didDocumentMetadata.deactivated true'),
          501: resolutionError('methodNotSupported: a DID of another method'),
          ...errorResponses(429),
        },
      },
    },
    async (req, reply) => {
      const input = req.params.did;
      if (!/^did:[a-z0-9]+:/.test(input))
        return fail(reply, 'invalidDid', `"${input.slice(0, 200)}" is not a DID (did:<method>:<identifier>).`);
      if (!input.startsWith('did:credence:'))
        return fail(
          reply,
          'methodNotSupported',
          `This resolver serves the did:credence method only, not ${input.split(':', 2).join(':')}.`,
        );
      const parsed = parseDid(input);
      if (!parsed) return fail(reply, 'invalidDid', 'A did:credence DID is did:credence:[<chainId>:]0x<40 hex characters>.');
      const row = await dids.resolve(parsed.did);
      if (!row) return fail(reply, 'notFound', `No DID ${parsed.did} is registered.`);
      let didDocument: Record<string, unknown>;
      try {
        didDocument = JSON.parse(row.did_document);
      } catch {
        didDocument = {};
      }
      reply.header('Cache-Control', 'public, max-age=60');
      const status = row.is_active ? 200 : 410;
      const documentOnly = wantsDocumentOnly(req.headers.accept);
      if (documentOnly && row.is_active) return reply.code(200).type(documentOnly).serializer(JSON.stringify).send(didDocument);
      const created = new Date(row.created_at).toISOString();
      const updated = new Date(row.updated_at).toISOString();
      return reply
        .code(status)
        .type(RESOLUTION_MEDIA_TYPE)
        .send({
          '@context': RESOLUTION_CONTEXT,
          didDocument,
          didResolutionMetadata: { contentType: DID_LD_JSON, retrieved: new Date().toISOString() },
          didDocumentMetadata: { created, ...(updated !== created ? { updated } : {}), ...(row.is_active ? {} : { deactivated: true }) },
        });
    },
  );
}
