// KYC sessions: pending -> approved | rejected (by the provider's signed callback) or expired (after 3600 s).
// A newer session supersedes an older pending one; an approved DID cannot start another session.
// The approved birth date is kept only encrypted, with its salted commitment for zero-knowledge age proofs.
import { randomUUID } from 'node:crypto';
import { forbidden, invalidState, notFound, unauthorized } from '../../platform/errors.js';
import type { Cipher } from '../../platform/secrets.js';
import type { Db } from '../../platform/db/types.js';
import type { ModuleServices } from '../../platform/context.js';
import type { BirthDateCommitment } from '../proofs/contracts.js';
import type { KycRepo, KycSessionRow } from './repo.js';
import type { KycProvider, KycProviderName, KycLevel } from './providers/types.js';
import type { ApprovedKyc } from './facts.js';

export const KYC_SESSION_SECONDS = 3600;

export interface KycServiceDeps {
  db: Db;
  repo: KycRepo;
  cipher: Cipher;
  providers: Map<string, KycProvider>;
  /** DIDs a session is for (identity), birth-date commitments (proofs), the credentials a revoked KYC backed (identity) */
  services: Pick<ModuleServices, 'identity' | 'proofs' | 'kycBackedCredentials'>;
  callbackUrl: (provider: string) => string;
  onKycChange(address: string): void;
}

export type WireStatus = 'pending' | 'approved' | 'rejected';

const isExpired = (s: KycSessionRow) => s.status === 'expired' || (s.status === 'pending' && s.expires_at.getTime() <= Date.now());

/** A session as integrators see it: an expired session counts as a failed (rejected) verification. */
export function wireStatus(s: KycSessionRow): { status: WireStatus; kycLevel: KycLevel; reason: string | null } {
  if (isExpired(s)) return { status: 'rejected', kycLevel: 'none', reason: 'expired' };
  if (s.status === 'approved') return { status: 'approved', kycLevel: s.kyc_level, reason: null };
  if (s.status === 'revoked') return { status: 'rejected', kycLevel: 'none', reason: s.result_reason ?? 'revoked' };
  if (s.status === 'rejected') return { status: 'rejected', kycLevel: 'none', reason: s.result_reason ?? 'rejected by the provider' };
  return { status: 'pending', kycLevel: 'none', reason: null };
}

export function createKycService(d: KycServiceDeps) {
  async function resolveDid(did: string) {
    const rec = await d.services.identity.resolveDid(did);
    if (!rec) throw notFound(`No DID ${did} is registered.`);
    return rec;
  }

  async function commit(address: string, birthDate: number): Promise<BirthDateCommitment | null> {
    return d.services.proofs.commitBirthDate(address, birthDate);
  }

  return {
    async initiate(didInput: string, providerName: KycProviderName, caller: string) {
      const rec = await resolveDid(didInput);
      if (rec.walletAddress !== caller.toLowerCase()) throw forbidden('Only the wallet that owns this DID may start its KYC verification.');
      if (!rec.isActive) throw invalidState(`The DID ${rec.did} is deactivated.`);
      if (await d.repo.approvedFor(rec.did)) throw invalidState(`KYC for ${rec.did} is already approved.`);
      const provider = d.providers.get(providerName)!;
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + KYC_SESSION_SECONDS * 1000);
      // The provider call happens before the transaction: nothing remote runs inside one.
      const { providerSessionId, url } = await provider.createSession({
        sessionId: id,
        did: rec.did,
        walletAddress: rec.walletAddress,
        expiresAt,
        callbackUrl: d.callbackUrl(providerName),
      });
      await d.db.tx(async (q) => {
        await d.repo.supersedePending(rec.did, q);
        await d.repo.insertSession(
          {
            id,
            did: rec.did,
            wallet_address: rec.walletAddress,
            provider: providerName,
            provider_session_id: providerSessionId,
            redirect_url: url,
            expires_at: expiresAt,
          },
          q,
        );
      });
      d.onKycChange(rec.walletAddress);
      return { sessionId: id, provider: providerName, redirectUrl: url, sessionUrl: url, expiresIn: KYC_SESSION_SECONDS, expiresAt };
    },

    async status(didInput: string) {
      const rec = await resolveDid(didInput);
      const s = await d.repo.current(rec.did);
      // decisions.md keeps 404 here; its details say this is "not verified yet" and the way on
      if (!s)
        throw notFound(
          `No KYC session was ever started for ${rec.did}: not verified yet. The DID's wallet starts one with POST /api/v1/compliance/kyc/initiate (signed in).`,
        );
      const w = wireStatus(s);
      return {
        did: rec.did,
        kycLevel: w.kycLevel,
        status: w.status,
        reason: w.reason,
        sessionId: s.id,
        provider: s.provider,
        updatedAt: s.completed_at ?? s.created_at,
      };
    },

    /** A provider's signed result. Bad signature: 401 and nothing changes. Replays are answered as before. */
    async callback(providerName: string, rawBody: string, body: unknown, headers: Record<string, string | string[] | undefined>) {
      const provider = d.providers.get(providerName);
      if (!provider) throw notFound(`Unknown KYC provider ${providerName}.`);
      if (!provider.verifySignature(rawBody, headers)) throw unauthorized('The callback signature is missing or does not match.');
      const result = provider.parseResult(body);
      const session = await d.repo.byProviderRef(providerName, result.providerSessionId);
      if (!session) throw notFound(`No KYC session ${result.providerSessionId} with provider ${providerName}.`);
      const replay = () => {
        if (session.status === result.outcome || (session.status !== 'pending' && session.result_event_id === result.eventId)) {
          return { received: true, sessionId: session.id, status: wireStatus(session).status, duplicate: true };
        }
        return null;
      };
      if (result.outcome === 'pending')
        return { received: true, sessionId: session.id, status: wireStatus(session).status, duplicate: false };
      const outcome = result.outcome;
      if (session.status === 'approved' || session.status === 'rejected') {
        const r = replay();
        if (r) return r;
        throw invalidState(`KYC session ${session.id} is already ${session.status}.`);
      }
      if (session.status === 'superseded') throw invalidState(`KYC session ${session.id} was replaced by a newer session.`);
      if (isExpired(session)) {
        // A provider's own "declined/expired" notice for a session that already ran out here changes nothing: acknowledge it.
        if (outcome === 'rejected') return { received: true, sessionId: session.id, status: 'rejected' as const, duplicate: true };
        throw invalidState(`KYC session ${session.id} expired at ${session.expires_at.toISOString()}.`);
      }

      let sealed: { birth: string; salt: string | null; commitment: string | null } | null = null;
      if (result.outcome === 'approved' && result.birthDate !== null) {
        const c = await commit(session.wallet_address, result.birthDate);
        sealed = {
          birth: d.cipher.encrypt(String(result.birthDate)),
          salt: c ? d.cipher.encrypt(c.salt) : null,
          commitment: c?.commitment ?? null,
        };
      }
      const level = outcome === 'approved' ? result.level : 'none';
      const updated = await d.db.tx(async (q) => {
        const row = await d.repo.complete(session.id, { status: outcome, level, eventId: result.eventId, reason: result.reason }, q);
        if (row && sealed) {
          await d.repo.upsertBirthDate(
            {
              wallet_address: session.wallet_address,
              session_id: session.id,
              birth_date_encrypted: sealed.birth,
              salt_encrypted: sealed.salt,
              commitment: sealed.commitment,
            },
            q,
          );
        }
        return row;
      });
      if (!updated) {
        // Lost a race with another delivery of a result (or the session expired meanwhile): answer from what is stored now.
        const now = (await d.repo.session(session.id))!;
        if (now.status === result.outcome) return { received: true, sessionId: now.id, status: wireStatus(now).status, duplicate: true };
        throw invalidState(`KYC session ${session.id} is ${isExpired(now) ? 'expired' : now.status}.`);
      }
      d.onKycChange(session.wallet_address);
      return { received: true, sessionId: session.id, status: wireStatus(updated).status, duplicate: false };
    },

    /**
     * Revokes the wallet's KYC (an administrator: a revocation reads as a failed verification, so the wallet cannot
     * do it to itself by mistake): every approved session of the wallet becomes revoked,
     * its birth date and commitment are deleted (age proofs made from it stop verifying, age checks answer
     * no_approved_kyc), and the KYC-backed credentials the service signed are revoked through the status list.
     */
    async revoke(didInput: string, caller: { address: string; roles: string[] }, reason: string | undefined) {
      const rec = await resolveDid(didInput);
      if (!caller.roles.includes('admin')) throw forbidden('Only an administrator may revoke a KYC.');
      const why = `revoked by an administrator${reason ? `: ${reason}` : ''}`;
      const revoked = await d.db.tx(async (q) => {
        const rows = await d.repo.revokeApproved(rec.walletAddress, why.slice(0, 500), q);
        if (rows.length) await d.repo.deleteBirthDate(rec.walletAddress, q);
        return rows;
      });
      if (!revoked.length) throw invalidState(`The wallet of ${rec.did} has no approved KYC to revoke.`);
      await d.services.kycBackedCredentials.revokeKycBacked(rec.walletAddress, caller.address.toLowerCase());
      d.onKycChange(rec.walletAddress);
      return { ...(await this.status(rec.did)), revokedSessions: revoked.map((r) => r.id) };
    },

    /** The DID's approved session, for a KYCVerified credential. */
    async approvedSession(did: string): Promise<ApprovedKyc | null> {
      const s = await d.repo.approvedFor(did);
      if (!s || s.kyc_level === 'none' || !s.completed_at) return null;
      return { sessionId: s.id, provider: s.provider, level: s.kyc_level, completedAt: s.completed_at };
    },

    /** For the local provider's page. */
    session: (id: string) => d.repo.session(id),

    /** Marks due sessions expired (the status answer already treats them so); their wallets get rescored. */
    async expireDue() {
      const wallets = await d.repo.expireDue();
      for (const w of wallets) d.onKycChange(w);
      return wallets.length;
    },

    async kycStatus(address: string): Promise<'none' | 'pending' | 'approved' | 'rejected'> {
      return (await walletSummary(address)).status;
    },

    walletSummary: (address: string) => walletSummary(address),

    /** walletSummary of many wallets in one query (bulk scoring), in the order asked. */
    async walletSummaries(addresses: string[]) {
      const wanted = addresses.map((a) => a.toLowerCase());
      const by = new Map<string, KycSessionRow[]>(wanted.map((a) => [a, []]));
      for (const s of await d.repo.currentForWallets([...by.keys()])) by.get(s.wallet_address)?.push(s);
      return wanted.map((a) => summarize(by.get(a)!));
    },

    async approvedBirthDate(address: string) {
      const a = address.toLowerCase();
      const row = await d.repo.birthDate(a);
      if (!row) return null;
      const birthDate = Number(d.cipher.decrypt(row.birth_date_encrypted));
      if (row.commitment && row.salt_encrypted)
        return { birthDate, salt: d.cipher.decrypt(row.salt_encrypted), commitment: row.commitment };
      // Approved before the proofs service was available: make the commitment now.
      const c = await commit(a, birthDate);
      if (!c) return null;
      await d.repo.setCommitment(a, d.cipher.encrypt(c.salt), c.commitment);
      const stored = (await d.repo.birthDate(a))!;
      return { birthDate, salt: d.cipher.decrypt(stored.salt_encrypted!), commitment: stored.commitment! };
    },
  };

  /** A wallet's KYC across its DIDs: approved if any DID is; expired sessions say nothing about the person. */
  async function walletSummary(address: string): Promise<{ status: 'none' | 'pending' | 'approved' | 'rejected'; level: KycLevel }> {
    return summarize(await d.repo.currentForWallet(address.toLowerCase()));
  }

  function summarize(sessions: KycSessionRow[]): { status: 'none' | 'pending' | 'approved' | 'rejected'; level: KycLevel } {
    const approved = sessions.filter((s) => s.status === 'approved');
    if (approved.length) return { status: 'approved', level: approved.some((s) => s.kyc_level === 'full') ? 'full' : 'basic' };
    const live = sessions.filter((s) => !isExpired(s)).sort((x, y) => y.created_at.getTime() - x.created_at.getTime());
    if (!live.length) return { status: 'none', level: 'none' };
    return { status: live[0].status === 'rejected' || live[0].status === 'revoked' ? 'rejected' : 'pending', level: 'none' };
  }
}

export type KycService = ReturnType<typeof createKycService>;
