// Wires the proofs module: the proofs service (ctx.services.proofs), its routes, the score-change listener,
// and, when a chain is configured, the commitment publisher (a worker) and the oracle service.
import type { Address, Hex } from 'viem';
import type { Module } from '../../platform/http/types.js';
import type { Worker } from '../../platform/context.js';
import { lazy } from '../../platform/lazy.js';
import { SCORE_UPDATED, categoryId, type ScoreChange } from '../scoring/contracts.js';
import { SUPPORTED_CHAINS } from '../../platform/config.js';
import { BUILD_DIR, multiParty, setupSummary, type SetupSummary } from './artifacts.js';
import type { Chain } from './chain.js';
import type { OracleService } from './contracts.js';
import { createCommitmentPublisher, type PublisherState } from './publisher.js';
import { createProofsRepo } from './repo.js';
import { proofsRoutes } from './routes.js';
import { startRuntime, verificationKeysDocument, type ProofRuntime } from './runtime.js';
import { createProofsService, type FullProofsService } from './service.js';
import { checkDeployedVerifiers } from './verifier-check.js';

// the chain side (viem's clients and accounts) loads when a chain is first used, not at every start
const loadChain = lazy(() => import('./chain.js'));

export const proofsModule: Module = {
  name: 'proofs',
  register(app, ctx) {
    const repo = createProofsRepo(ctx.db);
    const { config } = ctx;
    const artifactsDir = config.circuitsDir ?? BUILD_DIR;
    let setup: SetupSummary | null = null;
    const getSetup = () => (setup ??= setupSummary(artifactsDir));

    let chain: Promise<Chain> | null = null;
    const getChain = () => {
      chain ??= loadChain().then(({ connectChain }) => connectChain(config.chainRpcUrl!, config.signerKey as Hex));
      chain.catch(() => (chain = null));
      return chain;
    };
    const chainConfigured = Boolean(config.chainRpcUrl && config.signerKey);
    let publisher: {
      flush(): Promise<void>;
      clear(): Promise<void>;
      nudge(): void;
      state(): PublisherState | 'connecting' | 'off';
      worker: Worker;
    } | null = null;
    if (chainConfigured && config.oracleAddress) {
      let started: Promise<void> | null = null;
      const inner: { p: ReturnType<typeof createCommitmentPublisher> | null } = { p: null };
      // Keys from a single-party setup let whoever kept its entropy forge proofs: never publish commitments such
      // proofs would verify against on a public chain, unless the operator explicitly allows it.
      const gate = async (c: Chain): Promise<string | null> => {
        const chainId = await c.publicClient.getChainId();
        const s = getSetup();
        if ((SUPPORTED_CHAINS as readonly number[]).includes(chainId) && !multiParty(s) && !config.allowDevSetup) {
          return `chain ${chainId} is public and the circuit keys come from a single-contributor setup (phase 1: ${s.phase1Contributors}, phase 2: ${s.phase2Contributors} contributors); run a ceremony (credence ceremony) or set CREDENCE_ALLOW_DEV_SETUP=true`;
        }
        // The setup gate above is about the service's keys; what dApps trust is the verifier the oracle calls. A proof
        // made here must verify there (and not altered), else the contracts were deployed for other keys (e.g. the dev
        // keys while this instance proves with a ceremony's): publishing commitments for them would be useless at best.
        await getService();
        const rt = runtime!;
        const mismatch = await checkDeployedVerifiers(
          c.publicClient,
          { oracle: config.oracleAddress as Address, credentialVerifier: config.credentialVerifierAddress as Address | null },
          (circuit, input) => rt.prove(circuit, input),
          artifactsDir,
        );
        if (mismatch) return mismatch;
        ctx.log.info(
          { oracle: config.oracleAddress, keys: s.label },
          "the verifiers on-chain accept proofs made with this instance's circuit keys",
        );
        return null;
      };
      // the publisher needs a connected chain; connect when the worker starts, not at boot
      const p = {
        flush: async () => inner.p?.flush(),
        clear: async () => inner.p?.clear(),
        state: (): PublisherState | 'connecting' | 'off' => (started ? (inner.p?.state() ?? 'connecting') : 'off'),
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
                clearIntervalMs: config.commitmentClearSeconds * 1000,
                gate: () => gate(c),
                onError: (err) => ctx.log.error({ err }, 'publishing commitments failed'),
              });
              return inner.p.worker.start();
            });
            started.catch((err) => ctx.log.error({ err }, 'connecting to the chain failed; commitments are not published'));
          },
          async stop() {
            await started?.catch(() => undefined);
            await inner.p?.worker.stop();
          },
        },
      };
      publisher = p;
      ctx.workers.push(p.worker);
      const oracle: OracleService = {
        async submitEscalation(input) {
          const { createOracleService } = await loadChain();
          return createOracleService(await getChain(), config.oracleAddress as Address).submitEscalation(input);
        },
      };
      ctx.services.oracle = oracle;
    } else ctx.services.oracle = null;

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
        runtime = startRuntime({ provers: config.proverConcurrency, verifiers: config.verifierThreads, dir: artifactsDir });
        service = createProofsService({
          repo,
          cipher: ctx.cipher,
          services: ctx.services,
          runtime,
          log: ctx.log,
          proofLifetimeSeconds: config.proofLifetimeSeconds,
          onCommitment: () => publisher?.nudge(),
        });
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

    // occupancy of the proving and verifying threads, for /metrics (null until they start)
    ctx.services.proofQueue = () => runtime?.stats() ?? null;

    // what /health reports about the trusted setup behind the proofs, and whether commitments are being published
    ctx.services.proofsSetup = () => {
      let summary: SetupSummary;
      try {
        summary = getSetup();
      } catch (err) {
        ctx.log.error({ err }, 'reading the circuit keys failed');
        return undefined;
      }
      const st = publisher?.state();
      const publishing = !st || st === 'off' ? 'off' : typeof st === 'object' ? 'refused' : st === 'publishing' ? 'on' : 'connecting';
      return { ...summary, publishing, refusal: typeof st === 'object' ? st.refused : null } as const;
    };

    let keysDoc: ReturnType<typeof verificationKeysDocument> | null = null;
    proofsRoutes(app, getService, () => (keysDoc ??= verificationKeysDocument(artifactsDir)));
  },
};
