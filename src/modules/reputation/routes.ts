// Reputation routes: a wallet's nine scores, one category (served from a 60 s cache), and batches of up to 100.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import { toChecksum } from '../../platform/http/address.js';
import type { ScoreEntry as ScoreEntryType } from '../scoring/contracts.js';
import type { FastifyRequest } from 'fastify';
import { AddressParams, BatchBody, BatchResponse, CategoryParams, ExplainQuery, ScoreEntry, WalletScores } from './schemas.js';
import { ensNameOf } from '../../platform/ens.js';
import type { ReputationService } from './service.js';
import { serializedEntry } from './bodies.js';
import { fastCategoryRead } from './fast-read.js';

const tags = ['Reputation'];
const JSON_TYPE = 'application/json; charset=utf-8';

const FIRST_READ =
  'A wallet never scored before is ingested first (waiting at most ~2 s; ingestion continues in the background and later ' +
  'changes are pushed as `score.updated`) and scored from whatever evidence is in by then.';

/** The wallet a score read is about: its owner reads it with a session alone. */
export const ownWallet = (req: FastifyRequest) => (req.params as { address: string }).address;
export const OWNER_READS =
  " A signed-in wallet reads its own with its session alone (Authorization: Bearer, no API key, counting no quota); another wallet's session gets 403.";

export function registerReputationRoutes(app: App, ctx: AppContext, svc: ReputationService) {
  // the cached category read is also answered before Fastify's router (fast-read.ts)
  if (ctx.fastPaths) ctx.fastPaths.add(fastCategoryRead(ctx, ctx.fastPaths));
  // Test requests (a cred_test_ key, or a test sign-in) read deterministic sandbox scores; live ones the real ones.
  const scoring = (req: FastifyRequest) => svc.scoresFor(req.environment);

  app.register(
    async (plain) => {
      const s = plain.withTypeProvider<TypeBoxTypeProvider>();
      s.get(
        '/reputation/:address',
        {
          config: { auth: 'apiKey', cost: 1, sandbox: true, owner: ownWallet },
          schema: {
            operationId: 'reputation.getWalletScores',
            tags,
            summary: "A wallet's scores in all nine categories",
            description:
              'Returns the checksummed address (and `ensName` when the path gave an ENS name), its DID (null when none is registered) and nine score entries, OVERALL first. ' +
              'OVERALL is the weighted composite of the other eight. `?explain=true` adds `factors` (reason codes) to each entry. ' +
              `Counts 1 query. ${FIRST_READ}${OWNER_READS}`,
            params: AddressParams,
            querystring: ExplainQuery(false),
            response: { 200: WalletScores },
          },
        },
        (req) =>
          svc.walletScores(req.params.address, {
            explain: req.query.explain,
            environment: req.environment,
            ensName: ensNameOf(req, 'address'),
          }),
      );

      s.get(
        '/reputation/:address/:category',
        {
          config: { auth: 'apiKey', cost: 1, sandbox: true, owner: ownWallet },
          schema: {
            operationId: 'reputation.getCategoryScore',
            tags,
            summary: 'One category score of a wallet',
            description:
              'The score entry of one category, with `factors` (the top signals that raised or lowered it) unless `explain=false`. ' +
              'Served from a 60-second cache per address and category, evicted on every instance as soon as the score changes. ' +
              'The category must be exactly one of the nine upper-case names (400 otherwise). `address` may be an ENS name (see the parameter). ' +
              `Counts 1 query. ${FIRST_READ}${OWNER_READS}`,
            params: CategoryParams,
            querystring: ExplainQuery(true),
            response: { 200: ScoreEntry },
          },
        },
        (req, reply) => {
          const { address, category } = req.params;
          const explain = req.query.explain;
          // The body is sent pre-serialized (a JSON string skips the response serializer; same fields as the schema).
          const send = (e: ScoreEntryType) => void reply.type(JSON_TYPE).send(serializedEntry(e, explain) as never);
          const s = scoring(req);
          // Cache hit: answered synchronously from memory.
          const hit = s.peekScore(address, category);
          if (hit) send(hit);
          else s.getScore(address, category, { explain: true }).then(send, (err: unknown) => void reply.send(err as never));
        },
      );

      s.post(
        '/reputation/batch',
        {
          config: { auth: 'apiKey', cost: (req) => (req.body as BatchBody).addresses.length, sandbox: true },
          schema: {
            operationId: 'reputation.getBatchScores',
            tags,
            summary: 'One category for up to 100 wallets',
            description:
              'Answers `{category, count, results}` with one result per requested address, in request order (duplicates included), ' +
              'read in one database round trip. Counts 1 query per address; a batch larger than the remaining monthly quota is ' +
              'refused whole with 429 `quota_exceeded` and counts nothing. `?explain=true` adds `factors`. ' +
              'Addresses may be ENS names, resolved before scoring (a name that does not resolve gives 404 for the whole batch). ' +
              `More than 100 addresses, an invalid address or an unknown category give 400. ${FIRST_READ}`,
            body: BatchBody,
            querystring: ExplainQuery(false),
            response: { 200: BatchResponse },
          },
        },
        async (req) => {
          const { addresses, category } = req.body;
          const entries = await scoring(req).getBatch(addresses, category, { explain: req.query.explain });
          return {
            category,
            count: entries.length,
            results: entries.map((e, i) => ({
              address: toChecksum(addresses[i]),
              ensName: ensNameOf(req, `addresses[${i}]`),
              // the entry's fields (BatchResult's serializer writes those it lists: not the category, said once above)
              ...e,
            })),
          };
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
