// GET /compliance/age-checks: every age question asked about the signed-in wallet.
import type { App } from '../../../platform/http/types.js';
import { linkNext } from '../../../platform/http/pagination.js';
import { AgeCheckList, AgeChecksQuery } from '../schemas.js';
import { tags, type ComplianceRouteDeps } from './shared.js';

export function listAgeChecks(s: App, { ageChecks }: ComplianceRouteDeps): void {
  s.get<{ Querystring: AgeChecksQuery }>(
    '/compliance/age-checks',
    {
      config: { auth: 'jwt' },
      schema: {
        operationId: 'compliance.listAgeChecks',
        tags,
        summary: 'Who asked about my age',
        description:
          'For the signed-in wallet (the JWT subject): every age question asked about it (verify-age, age-verify, and age proofs from ' +
          '/reputation/prove), newest first: the API key id and the wallet that owns the key, the minimum age, the route, when, and the ' +
          'answer (`verified`; null while a proof is being made). Questions refused by the age-privacy allowance are not listed: they ' +
          'were never answered. The body is an array: the next page is in the `Link` header (see Pagination).',
        querystring: AgeChecksQuery,
        response: { 200: AgeCheckList },
      },
    },
    async (req, reply) => {
      const page = await ageChecks.listFor(req.user!.address, req.query.limit ?? 100, req.query.cursor);
      linkNext(req, reply, page.nextCursor);
      return page.items;
    },
  );
}
