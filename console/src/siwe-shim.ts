// The SDK's signIn only formats an EIP-4361 message with `new SiweMessage({...}).prepareMessage()`. In the
// browser that is viem's createSiweMessage (same standard text), so the bundle does not carry the `siwe` package
// and ethers (which it pulls in) next to viem. Aliased in vite.config.ts; the service still verifies with `siwe`.
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe';

type Fields = Omit<CreateSiweMessageParameters, 'address' | 'issuedAt' | 'version'> & { address: string; issuedAt?: string; version: string };

export class SiweMessage {
  constructor(private readonly fields: Fields) {}
  prepareMessage(): string {
    const f = this.fields;
    return createSiweMessage({ ...f, address: f.address as `0x${string}`, version: '1', issuedAt: f.issuedAt ? new Date(f.issuedAt) : new Date() });
  }
}
