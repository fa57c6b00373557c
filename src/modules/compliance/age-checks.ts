// Age privacy: asking "is this wallet's holder at least N?" with successive N reveals the exact age (36 true,
// 37 false). So one API key (with the other keys of the wallet that owns it) may ask about one wallet for only a few
// distinct minimum ages per window; all keys together may ask only a few distinct unusual minimums per wallet
// (fresh keys are free, so a per-key allowance alone is no limit). Repeating a minimum already asked reveals
// nothing new and is always allowed. Every question is recorded (in the database, so the allowance holds across
// instances) and the wallet's owner can list who asked.
import { AppError, forbidden } from '../../platform/errors.js';
import type { Db } from '../../platform/db/types.js';
import { toChecksum } from '../../platform/http/address.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../platform/http/pagination.js';
import type { AgeChecksRepo, AgeCheckRow } from './age-checks-repo.js';
import { currentEnvironment } from '../../platform/auth/environment.js';

/** Who asks: the API key and the wallet that owns it. */
export interface AgeAsker {
  keyId: string;
  keyOwner: string;
}

export type AgeRoute = 'verify-age' | 'age-verify' | 'prove';

export interface AgeChecksService {
  /**
   * Runs one age question under the asker's allowance: a further distinct minimum beyond it is refused with 403
   * before anything is proved. The question and its answer (from `outcome`) are recorded; a question that fails
   * without an answer (the proof service down) is forgotten, so it costs no allowance.
   */
  guard<T>(
    asker: AgeAsker,
    wallet: string,
    minimumAge: number,
    route: AgeRoute,
    run: () => Promise<T>,
    outcome?: (r: T) => { verified: boolean; reason: string | null },
  ): Promise<T>;
}

export interface AgeChecksDeps {
  db: Db;
  repo: AgeChecksRepo;
  /** distinct minimums per key (and its owner's other keys) per wallet per window */
  perKey: number;
  /** distinct minimums, other than the legal ages, all keys together per wallet per window; 0: no such cap */
  perWallet: number;
  windowDays: number;
  /** legal ages (18, 21 and the configured ones): asked routinely, so they do not use up the wallet-wide cap */
  legalAges: number[];
}

const list = (ages: Iterable<number>) => [...ages].sort((a, b) => a - b).join(', ');

export function createAgeChecks({ db, repo, perKey, perWallet, windowDays, legalAges }: AgeChecksDeps) {
  const legal = new Set(legalAges);

  /** When the first distinct minimum of `rows` leaves the window (its last ask plus the window). */
  function freesAt(rows: { minimum_age: number; created_at: Date }[]): string {
    const last = new Map<number, number>();
    for (const r of rows) last.set(r.minimum_age, Math.max(last.get(r.minimum_age) ?? 0, new Date(r.created_at).getTime()));
    const t = Math.min(...last.values()) + windowDays * 86_400_000;
    return new Date(t).toISOString();
  }

  async function admit(asker: AgeAsker, wallet: string, minimumAge: number, route: AgeRoute): Promise<string> {
    return db.tx(async (q) => {
      await repo.lockWallet(wallet, q);
      const recent = await repo.recentFor(wallet, windowDays, q);
      const mine = recent.filter((r) => r.api_key_id === asker.keyId || r.key_owner === asker.keyOwner);
      const mineAges = new Set(mine.map((r) => r.minimum_age));
      if (!mineAges.has(minimumAge) && mineAges.size >= perKey) {
        throw forbidden(
          `This API key (with the other keys of its owner) has already asked about ${mineAges.size} different minimum ages for this wallet ` +
            `in the last ${windowDays} days (${list(mineAges)}), the most allowed: asking about another would reveal the holder's exact age. ` +
            `Asking again about one of those is allowed; a new minimum becomes possible after ${freesAt(mine)}.`,
        );
      }
      if (perWallet > 0 && !legal.has(minimumAge)) {
        const unusual = recent.filter((r) => !legal.has(r.minimum_age));
        const unusualAges = new Set(unusual.map((r) => r.minimum_age));
        if (!unusualAges.has(minimumAge) && unusualAges.size >= perWallet) {
          throw forbidden(
            `This wallet has already been asked about ${unusualAges.size} different minimum ages other than the legal ages (${list(legal)}) ` +
              `in the last ${windowDays} days, by all API keys together, the most allowed: asking about another would reveal the holder's ` +
              `exact age. The legal ages and the minimums already asked (${list(unusualAges)}) remain available; a new one becomes possible after ${freesAt(unusual)}.`,
          );
        }
      }
      return repo.insert({ wallet_address: wallet, api_key_id: asker.keyId, key_owner: asker.keyOwner, minimum_age: minimumAge, route }, q);
    });
  }

  const service: AgeChecksService = {
    async guard(asker, walletInput, minimumAge, route, run, outcome) {
      // a test (sandbox) question asks nothing about a real person: neither logged for the wallet nor counted
      if (currentEnvironment() === 'test') return run();
      const wallet = walletInput.toLowerCase();
      const id = await admit({ keyId: asker.keyId, keyOwner: asker.keyOwner.toLowerCase() }, wallet, minimumAge, route);
      let result;
      try {
        result = await run();
      } catch (e) {
        // A false statement is an answer (the asker learned it); anything else told the asker nothing.
        if (e instanceof AppError && e.code === 'proof_unsatisfiable') await repo.settle(id, false, 'proof_unsatisfiable');
        else await repo.forget(id);
        throw e;
      }
      const o = outcome ? outcome(result) : { verified: true, reason: null };
      await repo.settle(id, o.verified, o.reason);
      return result;
    },
  };

  return {
    service,
    /** One page, newest first, and the cursor of the next one (null on the last page). */
    async listFor(owner: string, limit: number, cursor?: string) {
      const before = cursor ? decodeCursor('age_checks', cursor, [CREATED_KEY, UUID]) : null;
      const page = cutPage(await repo.listFor(owner.toLowerCase(), limit + 1, before), limit, 'age_checks', (r) => [r.created_key, r.id]);
      return { items: page.items.map(({ created_key: _k, ...r }) => toAgeCheck(r)), nextCursor: page.nextCursor };
    },
  };
}

export type AgeChecks = ReturnType<typeof createAgeChecks>;

function toAgeCheck(r: AgeCheckRow) {
  return {
    id: r.id,
    apiKeyId: r.api_key_id,
    keyOwner: toChecksum(r.key_owner),
    minimumAge: r.minimum_age,
    route: r.route,
    verified: r.verified,
    reason: r.reason,
    askedAt: r.created_at,
  };
}
