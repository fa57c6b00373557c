// The reputation service: a wallet's whole answer (its nine scores, its DID, whether it is a protocol contract) from
// the modules that hold each part. Test requests read deterministic sandbox scores; live ones the stored scores.
import type { ModuleServices } from '../../platform/context.js';
import type { Environment } from '../../platform/auth/environment.js';
import { toChecksum } from '../../platform/http/address.js';
import { sandboxScoring, type ScoreEntry, type ScoringService } from '../scoring/index.js';

export type ScoreReader = Pick<ScoringService, 'getScores' | 'getScore' | 'getBatch' | 'peekScore'>;

export interface WalletAnswer {
  address: string;
  ensName?: string;
  did: string | null;
  accountType: 'contract' | 'wallet';
  contractLabel: string | null;
  scores: ScoreEntry[];
  coverage: ScoreEntry['coverage'];
}

export function createReputationService(deps: { services: Pick<ModuleServices, 'scoring' | 'identity' | 'ingestion'> }) {
  const { services } = deps;
  /** The scores a request reads: the sandbox's for test credentials, else the stored ones. */
  const scoresFor = (environment: Environment | undefined): ScoreReader => (environment === 'test' ? sandboxScoring : services.scoring);

  return {
    scoresFor,

    /** All nine scores of a wallet (OVERALL first), its DID, and its account type. `ensName`: the name the path gave. */
    async walletScores(
      address: string,
      o: { explain?: boolean; environment: Environment | undefined; ensName?: string },
    ): Promise<WalletAnswer> {
      const [scores, identity] = await Promise.all([
        scoresFor(o.environment).getScores(address, { explain: o.explain }),
        services.identity.signalFor(address.toLowerCase()),
      ]);
      // after the scores: a first read has ingested the wallet by then, and a pool is known from its swaps
      const known = await services.ingestion.contractOf(address);
      return {
        address: toChecksum(address),
        ...(o.ensName ? { ensName: o.ensName } : {}),
        did: identity.did,
        accountType: known ? 'contract' : 'wallet',
        contractLabel: known?.label ?? null,
        scores,
        coverage: scores[0]?.coverage,
      };
    },
  };
}

export type ReputationService = ReturnType<typeof createReputationService>;
