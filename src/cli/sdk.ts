// The SDK (sdk/src, outside src/) for the integrator commands. scripts/build.mjs bundles this one file, so the
// compiled CLI in dist/ carries the SDK without a separate build of sdk/.
export * from '../../sdk/src/index.js';
