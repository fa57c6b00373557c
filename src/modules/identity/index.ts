// Wires the identity module: DIDs (did:credence), verifiable credentials from the service's own issuer, and the
// identity signals the scoring module reads (ctx.services.identity).
import { randomBytes } from 'node:crypto';
import type { Module } from '../../platform/http/types.js';
import { backgroundRecompute } from '../scoring/index.js';
import { createIdentityRepo, type DidRow } from './repo.js';
import { createDidService } from './service.js';
import { createControlRepo } from './control.js';
import { createCredentialService, issuerDidOf } from './credentials.js';
import { createVerifiedClaims } from './verified-claims.js';
import { createStatusLists } from './status-list.js';
import { registerStatusListRoutes } from './status-list-routes.js';
import { createIpfsPinner } from './ipfs.js';
import { registerIdentityRoutes } from './routes.js';
import { registerResolverRoutes } from './resolver-routes.js';

export const identityModule: Module = {
  name: 'identity',
  async register(app, ctx) {
    const repo = createIdentityRepo(ctx.db);
    // A DID registered while the app is assembled (the issuer's own, below, on a new database or a new issuer key) is
    // rescored once it is ready, and only if its wallet was scored before (as a new sanctions list rescores only known
    // wallets): the score reads services of modules registered after this one, a wallet never scored gets the DID in
    // its first score, and scoring one at start built every chain's registry (~1.5 s) before /health/ready answered.
    const rescore = backgroundRecompute(ctx, 'identity');
    const held: string[] = [];
    let assembling = true;
    const onIdentityChange = (address: string) => (assembling ? void held.push(address.toLowerCase()) : rescore(address));
    app.addHook('onReady', async () => {
      assembling = false;
      const addresses = held.splice(0);
      if (addresses.length === 0) return;
      for (const address of await ctx.services.scoring.knownAddresses(addresses)) rescore(address);
    });
    const control = createControlRepo(ctx.db);
    const dids = createDidService({
      repo,
      cache: ctx.caches.create<DidRow | null>('identity.dids', { ttlMs: 5 * 60_000 }),
      onIdentityChange,
      control,
    });
    const issuerHex = ctx.config.issuerKey ?? `0x${ctx.secret('issuer-key', () => randomBytes(32).toString('hex')).replace(/^0x/, '')}`;
    const statusLists = createStatusLists({
      repo,
      issuerKey: issuerHex,
      issuerDid: issuerDidOf(issuerHex),
      publicUrl: () => ctx.publicUrl(),
    });
    const creds = createCredentialService({
      repo,
      dids,
      issuerKey: issuerHex,
      pinner: ctx.config.ipfsApi ? createIpfsPinner(ctx.config.ipfsApi) : null,
      onIdentityChange,
      log: ctx.log,
      statusLists,
      verified: createVerifiedClaims({ services: ctx.services, control }),
    });
    // compliance revokes the KYC-backed credentials when a KYC is revoked
    ctx.services.kycBackedCredentials = { revokeKycBacked: (address, actor) => creds.revokeKycBacked(address, actor) };
    // The issuer's own DID, so verifiers can resolve it like any other.
    await dids.register(creds.issuerAddress, 1);
    ctx.log.info({ issuerDid: creds.issuerDid }, 'verifiable credential issuer');
    ctx.services.identity = {
      signalFor: (address) => dids.signalFor(address),
      signalsForMany: (addresses) => dids.signalsForMany(addresses),
      recordControl: (address, method) => dids.recordControl(address, method),
      resolveDid: async (did) => {
        const row = await dids.resolve(did);
        return row && { did: row.did, walletAddress: row.wallet_address, chainId: Number(row.chain_id), isActive: row.is_active };
      },
    };
    registerIdentityRoutes(app, dids, creds);
    registerResolverRoutes(app, ctx, dids);
    registerStatusListRoutes(app, statusLists);
  },
};
