// The injected browser wallet (EIP-1193, window.ethereum) through viem: accounts, chain and personal_sign.
import { createWalletClient, custom, type EIP1193Provider } from 'viem';
import type { SiweSigner } from '@credence/sdk/siwe';

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

export async function connectWallet(): Promise<{ signer: SiweSigner; chainId: number }> {
  const provider = window.ethereum;
  if (!provider) throw new Error('No browser wallet found: install or unlock an Ethereum wallet (EIP-1193) and reload.');
  const wallet = createWalletClient({ transport: custom(provider) });
  const [address] = await wallet.requestAddresses();
  if (!address) throw new Error('The wallet shared no account.');
  const chainId = await wallet.getChainId();
  return {
    chainId,
    signer: {
      getAddress: () => address,
      signMessage: (message: string) => wallet.signMessage({ account: address, message }),
    },
  };
}
