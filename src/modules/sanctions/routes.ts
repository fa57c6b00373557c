// Sanctions routes: screening (API key, 1 query each) and list administration (admin JWT).
import type { Readable } from 'node:stream';
import { AppError, fieldError, invalidState, unavailable } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import { errorResponses } from '../../platform/openapi.js';
import { apiRoutes, type App } from '../../platform/http/types.js';
import { SanctionsFileError, SanctionsFileTooLarge } from './parse/index.js';
import {
  ImportQuery,
  ImportResponse,
  ListsResponse,
  SanctionsAddressParams,
  SanctionsCheckBody,
  SanctionsResult,
  type SanctionsResultT,
} from './schemas.js';
import { SanctionsImportRefused, SOURCE, stalenessOf, type SanctionsScreening } from './service.js';

/** Largest upload accepted (the full sdn_advanced.xml is ~100 MB). */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
const FILE_TYPES = ['application/xml', 'text/xml', 'text/csv', 'application/zip', 'application/octet-stream'];

const SCREENING_RULES =
  'Screens the address against the OFAC SDN list in force: the EVM addresses published as "Digital Currency Address - ETH" ' +
  '(and the other tickers with 0x addresses: ETC, ARB, BSC, USDC, USDT), matched case-insensitively. ' +
  '`sanctioned` is true when the address is on the list, with `entityName` naming the SDN entry; `listPublishedAt` is the ' +
  "list's publication date, `listVersion` and `listSource` say which list answered (`snapshot`: the OFAC SDN snapshot of 2024-09-27 " +
  'shipped with the service and loaded at first start, without entity names; `import`: an official file imported or refreshed, which ' +
  'replaces the snapshot). Counts 1 query. With no list at all (the snapshot disabled with CREDENCE_SANCTIONS_SNAPSHOT=false and ' +
  'nothing imported) the answer is 503 `unavailable`: screening fails closed and never answers "not sanctioned" without a list. ' +
  'A mixed-case address that fails its EIP-55 checksum gets 400.';

export function registerSanctionsRoutes(app: App, screening: SanctionsScreening, maxAgeDays: number) {
  const check = (address: string): SanctionsResultT => {
    const r = screening.screen(address);
    if (!r)
      throw unavailable(
        'No sanctions list is loaded, so no address can be screened; an operator must import the OFAC SDN list (or enable the shipped snapshot).',
      );
    const out: SanctionsResultT = {
      walletAddress: toChecksum(address),
      sanctioned: r.sanctioned,
      checkedAt: new Date() as unknown as string,
      source: SOURCE,
      listPublishedAt: r.listPublishedAt as unknown as string,
      listVersion: r.listVersion,
      listSource: r.listSource,
    };
    if (r.sanctioned && r.entityName) out.entityName = r.entityName;
    return out;
  };

  apiRoutes(app, (s) => {
    s.post(
      '/compliance/sanctions-check',
      {
        config: { auth: 'apiKey', cost: 1 },
        schema: {
          operationId: 'compliance.checkSanctions',
          tags: ['Compliance'],
          summary: 'Screen a wallet against the OFAC SDN list',
          description: SCREENING_RULES,
          body: SanctionsCheckBody,
          response: { 200: SanctionsResult, ...errorResponses(503) },
        },
      },
      async (req) => check(req.body.walletAddress),
    );
    s.get(
      '/compliance/sanctions/:address',
      {
        config: { auth: 'apiKey', cost: 1 },
        schema: {
          operationId: 'compliance.getSanctionsStatus',
          tags: ['Compliance'],
          summary: 'Sanctions status of a wallet',
          description: `Same result as POST /compliance/sanctions-check, for the address in the path. ${SCREENING_RULES}`,
          params: SanctionsAddressParams,
          response: { 200: SanctionsResult, ...errorResponses(503) },
        },
      },
      async (req) => check(req.params.address),
    );
    s.get(
      '/compliance/sanctions/lists',
      {
        config: { auth: 'admin' },
        schema: {
          operationId: 'compliance.listSanctionsLists',
          tags: ['Compliance'],
          summary: 'Imported sanctions lists (admin)',
          description:
            'The list in force (the highest version), how old it is (`staleness`: `stale` when published more than CREDENCE_SANCTIONS_MAX_AGE_DAYS ' +
            'days ago, with a `warning` saying what to do) and the 20 most recent imports. Admin JWT only.',
          response: { 200: ListsResponse },
        },
      },
      async () => {
        const lists = await screening.repo.recent(20);
        const current = lists[0] ?? null;
        return { current, staleness: stalenessOf(current ? new Date(current.publishedAt) : null, maxAgeDays), lists };
      },
    );
  });

  // The upload route reads the file as a stream, in its own scope so only it accepts non-JSON bodies.
  apiRoutes(app, (s) => {
    s.addContentTypeParser(FILE_TYPES, (_req, payload, done) => done(null, payload));
    s.post(
      '/compliance/sanctions/import',
      {
        config: { auth: 'admin' },
        schema: {
          operationId: 'compliance.importSanctionsList',
          tags: ['Compliance'],
          summary: 'Import an OFAC SDN file (admin)',
          description:
            'The request body is the official file itself, streamed: `sdn_advanced.xml` (Content-Type application/xml) or `sdn.csv` ' +
            `(text/csv), or the ZIP archive of either; application/octet-stream is sniffed. At most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. The file becomes a new list version ` +
            'and is in force on every instance at once; wallets whose status it changes have their scores recomputed in the background. ' +
            'A file identical to the list in force gives 200 `unchanged`; a new version 201. A list published before the one in force ' +
            'is refused with 409 unless `force=true`. A file that would drop more than half of the entries of the list in force, and at least 10 (for example a ' +
            'one-entry sdn.csv replacing 152) is refused with 409 `invalid_state` whose details say how many entries it would drop and keep, ' +
            'unless `confirm=true` (or `force=true`); nothing is imported then. A file that is not an SDN file in either format gets 400. An uploaded sdn.csv is read ' +
            'without sdn_comments.csv (the overflow of long remarks): prefer the advanced XML here, or the CLI for the CSV pair. Admin JWT only.',
          querystring: ImportQuery,
          response: { 200: ImportResponse, 201: ImportResponse, ...errorResponses(409) },
        },
      },
      async (req, reply) => {
        const body = req.body as unknown;
        if (!body || typeof (body as Readable).pipe !== 'function') {
          throw new AppError('unsupported_media_type', `Send the file itself as the body, with Content-Type ${FILE_TYPES.join(', ')}.`);
        }
        let publishedAt: Date | null = null;
        if (req.query.publishedAt) {
          publishedAt = new Date(req.query.publishedAt.length === 10 ? `${req.query.publishedAt}T00:00:00Z` : req.query.publishedAt);
          if (Number.isNaN(publishedAt.getTime())) throw fieldError('publishedAt', 'is not a valid date');
        }
        try {
          const result = await screening.importList({
            source: body as Readable,
            fileName: req.query.fileName ?? null,
            publishedAt,
            importedBy: toChecksum(req.user!.address),
            force: req.query.force,
            confirm: req.query.confirm,
            maxBytes: MAX_UPLOAD_BYTES,
          });
          reply.code(result.status === 'imported' ? 201 : 200);
          return result;
        } catch (e) {
          if (e instanceof SanctionsFileTooLarge) throw new AppError('payload_too_large', e.message);
          if (e instanceof SanctionsFileError) throw fieldError('body', e.message);
          if (e instanceof SanctionsImportRefused) throw invalidState(e.message);
          throw e;
        }
      },
    );
  });
}
