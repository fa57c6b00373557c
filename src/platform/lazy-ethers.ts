// ethers (~130 modules) loads when a feature first needs it (ENS, ES256K signatures, an EIP-1271 sign-in), not at
// every start.
import { lazy } from './lazy.js';

export const loadEthers = lazy(() => import('ethers'));
