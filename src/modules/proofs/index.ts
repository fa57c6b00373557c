// Wires the proofs module: the proofs service (ctx.services.proofs), its routes, the score-change listener,
// and, when a chain is configured, the commitment publisher (a worker) and the oracle service.
import type { Address, Hex } from 'viem';
import type { Module } from '../../platform/http/types.js';
import { SCORE_UPDATED, categoryId, type ScoreChange } from '../scoring/contracts.js';
import { connectChain, createCommitmentPublisher, createOracleService, type Chain } from './chain.js';
import type { OracleService } from './contracts.js';
import { createProofsRepo } from './repo.js';
import { proofsRoutes } from './routes.js';
import { startRuntime, verificationKeysDocument, type ProofRuntime } from './runtime.js';
import { createProofsService, type FullProofsService } from './service.js';

export const proofsModule: Module = {
  name: 'proofs',
  register(app, ctx) {
    const repo = createProofsRepo(ctx.db);
    const { config } = ctx;

    let chain: Promise<Chain> | null = null;
    const getChain = () => {
      chain ??= connectChain(config.chainRpcUrl!, config.signerKey as Hex);
      chain.catch(() => (chain = null));
      return chain;
    };
    const chainConfigured = Boolean(config.chainRpcUrl && config.signerKey);
    let publisher: ReturnType<typeof createCommitmentPublisher> | null = null;
    if (chainConfigured && config.oracleAddress) {
      let started: Promise<void> | null = null;
      const inner: { p: ReturnType<typeof createCommitmentPublisher> | null } = { p: null };
      // the publisher needs a connected chain; connect when the worker starts, not at boot
      publisher = {
        flush: async () => inner.p?.flush(),
        nudge: () => inner.p?.nudge(),
        worker: {
          name: 'proofs-commitment-publisher',
          start() {
            started = getChain().then((c) => {
              inner.p = createCommitmentPublisher({
                chain: c,
                repo,
                oracle: config.oracleAddress as Address,
                credentialVerifier: config.credentialVerifierAddress as Address | null,
                onError: (err) => ctx.log.error({ err }, 'publishing commitments failed'),
              });
              inner.p.worker.start();
            });
            started.catch((err) => ctx.log.error({ err }, 'connecting to the chain failed; commitments are not published'));
          },
          async stop() {
            await started?.catch(() => undefined);
            await inner.p?.worker.stop();
          },
        },
      };
      ctx.workers.push(publisher.worker);
      const oracle: OracleService = {
        async submitEscalation(input) {
          return createOracleService(await getChain(), config.oracleAddress as Address).submitEscalation(input);
        },
      };
      ctx.services.oracle = oracle;
    }

    // Issued proofs are recorded for the `timestamp` claim at verify time; once their commitment is superseded they
    // can never verify again, so an hourly sweep forgets them (after a day, for whoever is still looking).
    let pruner: NodeJS.Timeout | null = null;
    const prune = () =>
      repo.pruneIssuances(86_400).then(
        (n) => n && ctx.log.info({ pruned: n }, 'pruned issued proofs of superseded commitments'),
        (err) => ctx.log.error({ err }, 'pruning issued proofs failed'),
      );
    ctx.workers.push({
      name: 'proofs-issuance-pruner',
      start() {
        pruner = setInterval(prune, 3_600_000);
        pruner.unref();
      },
      stop() {
        if (pruner) clearInterval(pruner);
        pruner = null;
      },
    });

    let runtime: ProofRuntime | null = null;
    let service: FullProofsService | null = null;
    const getService = async () => {
      if (!service) {
        runtime = startRuntime({ provers: config.proverConcurrency, verifiers: config.verifierThreads });
        service = createProofsService({ repo, cipher: ctx.cipher, services: ctx.services, runtime, log: ctx.log, onCommitment: () => publisher?.nudge() });
      }
      return service;
    };
    ctx.onClose(async () => {
      await runtime?.close();
    });
    // An API instance starts its threads once it is ready, so the first proofs do not wait for them to load.
    if (config.proverWarmup && config.roles.includes('api')) {
      app.addHook('onReady', async () => {
        void getService();
      });
    }

    // other modules get the service at once; the runtime behind it starts on the first call
    ctx.services.proofs = {
      commitBirthDate: async (address, birthDate) => (await getService()).commitBirthDate(address, birthDate),
      proveAge: async (input) => (await getService()).proveAge(input),
    };

    ctx.bus.subscribe<ScoreChange>(SCORE_UPDATED, async (change) => {
      if (change.oldScore === change.newScore) return;
      // every instance hears this: each drops its remembered commitment, and the (idempotent) update supersedes it
      if (service) await service.onScoreChanged(change.address, change.category, change.newScore);
      else await repo.supersede('score', change.address.toLowerCase(), categoryId(change.category), change.newScore);
    });

    let keysDoc: ReturnType<typeof verificationKeysDocument> | null = null;
    proofsRoutes(app, getService, () => (keysDoc ??= verificationKeysDocument()));
  },
};
