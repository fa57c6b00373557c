// Compliance routes: KYC initiate, status and provider callbacks; age verification. One file each under routes/;
// this registers them in the OpenAPI document's order.
import type { App } from '../../platform/http/types.js';
import type { AgeService } from './age.js';
import type { AgeChecks } from './age-checks.js';
import type { KycService } from './kyc-service.js';
import { initiateKyc } from './routes/initiate-kyc.js';
import { getKycStatus } from './routes/get-kyc-status.js';
import { revokeKyc } from './routes/revoke-kyc.js';
import { kycCallback } from './routes/kyc-callback.js';
import { listAgeChecks } from './routes/list-age-checks.js';
import { verifyAge } from './routes/verify-age.js';
import { ageVerifyForJurisdiction } from './routes/age-verify-for-jurisdiction.js';

const ROUTES = [initiateKyc, getKycStatus, revokeKyc, kycCallback, listAgeChecks, verifyAge, ageVerifyForJurisdiction];

export function registerComplianceRoutes(app: App, kyc: KycService, age: AgeService, ageChecks: AgeChecks) {
  app.register(
    async (s) => {
      for (const route of ROUTES) route(s, { kyc, age, ageChecks });
    },
    { prefix: '/api/v1' },
  );
}
