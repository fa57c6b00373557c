// Wires the compliance module: KYC sessions with provider adapters (the built-in local provider when none is
// configured), the approved birth dates (ctx.services.kyc), age verification, and the compliance signals the
// scoring module reads (ctx.services.compliance: KYC plus the sanctions module's screening).
import type { Module } from '../../platform/http/types.js';
import { backgroundRecompute } from '../scoring/index.js';
import { createAgeService } from './age.js';
import { createAgeChecks } from './age-checks.js';
import { createAgeChecksRepo } from './age-checks-repo.js';
import { createKycRepo } from './repo.js';
import { createKycService } from './kyc-service.js';
import { registerComplianceRoutes } from './routes.js';
import { registerLocalPage } from './local-page.js';
import { createLocalProvider, type LocalProvider } from './providers/local.js';
import { createHostedProvider } from './providers/hosted.js';
import { createDisabledProvider } from './providers/disabled.js';
import { KYC_PROVIDERS, type KycProvider } from './providers/types.js';

const EXPIRY_SWEEP_MS = 60_000;

export const complianceModule: Module = {
  name: 'compliance',
  register(app, ctx) {
    const secret = ctx.config.kycCallbackSecret ?? ctx.secret('kyc-callback-secret');
    // Each wire name is a hosted provider when its settings are present, else the built-in verification page.
    const settings = [ctx.config.kycProviders.default, ctx.config.kycProviders.alt];
    const local = new Map<string, LocalProvider>();
    const providers = new Map<string, KycProvider>();
    KYC_PROVIDERS.forEach((name, i) => {
      const hosted = settings[i];
      if (hosted) return void providers.set(name, createHostedProvider(name, hosted));
      // The built-in page approves anything: only where local providers are on (development; security area).
      if (!ctx.config.localProviders)
        return void providers.set(name, createDisabledProvider(name, `CREDENCE_KYC_${i === 0 ? 'DEFAULT' : 'ALT'}`));
      const p = createLocalProvider(name, secret, () => ctx.publicUrl());
      local.set(name, p);
      providers.set(name, p);
    });
    const repo = createKycRepo(ctx.db);
    const kyc = createKycService({
      db: ctx.db,
      repo,
      cipher: ctx.cipher,
      providers,
      services: ctx.services,
      callbackUrl: (p) => `${ctx.publicUrl().replace(/\/+$/, '')}/api/v1/compliance/kyc/callback/${encodeURIComponent(p)}`,
      onKycChange: backgroundRecompute(ctx, 'kyc'),
    });
    ctx.services.kycFacts = { approvedSession: (did) => kyc.approvedSession(did) };
    const age = createAgeService({ kyc, services: ctx.services, legalAges: ctx.config.legalAges });
    const ageChecks = createAgeChecks({
      db: ctx.db,
      repo: createAgeChecksRepo(ctx.db),
      perKey: ctx.config.ageCheckMinimums,
      perWallet: ctx.config.ageCheckWalletMinimums,
      windowDays: ctx.config.ageCheckWindowDays,
      legalAges: [18, 21, ...Object.values(ctx.config.legalAges)],
    });
    ctx.services.ageChecks = ageChecks.service;

    ctx.services.kyc = { approvedBirthDate: (a) => kyc.approvedBirthDate(a), kycStatus: (a) => kyc.kycStatus(a) };
    ctx.services.compliance = {
      async signalFor(address) {
        const k = await kyc.walletSummary(address);
        return {
          sanctioned: ctx.services.sanctions.status(address.toLowerCase()).sanctioned,
          kycStatus: k.status,
          kycLevel: k.level,
        };
      },
      async signalsForMany(addresses) {
        const ks = await kyc.walletSummaries(addresses);
        return addresses.map((a, i) => ({
          sanctioned: ctx.services.sanctions.status(a.toLowerCase()).sanctioned,
          kycStatus: ks[i].status,
          kycLevel: ks[i].level,
        }));
      },
    };

    let timer: NodeJS.Timeout | null = null;
    let sweeping: Promise<unknown> | null = null;
    ctx.workers.push({
      name: 'kyc-session-expiry',
      start() {
        timer = setInterval(() => {
          sweeping ??= kyc
            .expireDue()
            .catch((err) => ctx.log.error({ err }, 'expiring KYC sessions failed'))
            .finally(() => (sweeping = null));
        }, EXPIRY_SWEEP_MS);
        timer.unref();
      },
      async stop() {
        if (timer) clearInterval(timer);
        timer = null;
        await sweeping;
      },
    });

    registerComplianceRoutes(app, kyc, age, ageChecks);
    registerLocalPage(app, kyc, local);
  },
};
