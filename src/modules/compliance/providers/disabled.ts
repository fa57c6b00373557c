// A provider slot with neither hosted settings nor local providers (a public deployment, see
// CREDENCE_LOCAL_PROVIDERS): sessions cannot be opened (503 saying what to configure) and no callback verifies,
// so nobody can approve a KYC through the development page.
import { badRequest, unavailable } from '../../../platform/errors.js';
import type { KycProvider, KycProviderName } from './types.js';

export function createDisabledProvider(name: KycProviderName, settingsPrefix: string): KycProvider {
  return {
    name,
    kind: 'disabled',
    async createSession() {
      throw unavailable(
        `The KYC provider ${name} is not configured: set ${settingsPrefix}_API_URL, _API_KEY and _WEBHOOK_SECRET ` +
          '(the built-in verification page is for development; CREDENCE_LOCAL_PROVIDERS=true enables it).',
      );
    },
    verifySignature: () => false,
    parseResult() {
      throw badRequest(`The KYC provider ${name} is not configured.`);
    },
  };
}
