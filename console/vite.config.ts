// Builds the landing page (dist/landing.html, served at /) and the console SPA (dist/index.html, served at
// /console and its routes). Everything, fonts and chart styles included, is bundled: nothing is fetched from
// elsewhere at run time. The SDK is used from its sources (../sdk/src), as an integrator would use the package.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { sourceHash } from './source-hash.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  base: '/console/',
  resolve: {
    alias: [
      { find: /^@credence\/sdk$/, replacement: here('../sdk/src/index.ts') },
      // the SDK's sign-in on its own, so it (and the wallet code) loads when someone signs in, not with the page
      { find: /^@credence\/sdk\/siwe$/, replacement: here('../sdk/src/siwe.ts') },
      { find: /^siwe$/, replacement: here('src/siwe-shim.ts') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [
    {
      name: 'credence-source-hash',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'build-info.json', source: `${JSON.stringify({ sourceHash: sourceHash(here('.')) })}\n` });
      },
    },
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // no inline scripts or styles anywhere: the service's CSP allows only 'self'
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { console: here('index.html'), landing: here('landing.html') },
    },
  },
});
