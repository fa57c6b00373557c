// GET /dispute/wallet/{address}: a wallet's disputes, newest first.
import type { App } from '../../../platform/http/types.js';
import { AddressParams, WalletDisputes, WalletDisputesQuery } from '../schemas.js';
import { OWNER_ONLY, TAGS, walletDisputes, type DisputeRouteDeps } from './shared.js';

export function listWalletDisputes(s: App, { svc }: DisputeRouteDeps): void {
  s.get(
    '/dispute/wallet/:address',
    {
      config: { auth: 'apiKey', sandbox: true, owner: (req) => (req.params as { address: string }).address },
      schema: {
        operationId: 'disputes.listWalletDisputes',
        tags: TAGS,
        summary: "A wallet's disputes",
        description:
          'Every dispute filed for the wallet, newest first, paged with `limit` and `cursor` (see Pagination); `count` is their number on every page. ' +
          `A wallet without disputes gets count 0, not 404.${OWNER_ONLY}`,
        params: AddressParams,
        querystring: WalletDisputesQuery,
        response: { 200: WalletDisputes },
      },
    },
    async (req) => (await walletDisputes(svc, req.params.address, req.query as { limit?: number; cursor?: string })) as never,
  );
}
