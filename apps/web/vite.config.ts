import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bootPreload } from './boot-preload.ts';
import { precompress } from './precompress.ts';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:3000';

/**
 * React Router's package exports name only its development build (remix-run/react-router#12532, #14753): a
 * production bundle would carry its development warnings. Its production build (the same code with
 * `ENABLE_DEV_WARNINGS = false`, so the minifier drops them) is taken for `vite build`.
 */
function reactRouterProduction(): { find: RegExp; replacement: string }[] {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist/production');
  return [
    { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
  ];
}

export default defineConfig(({ command }) => ({
  plugins: [react(), bootPreload(), precompress()],
  resolve: { alias: command === 'build' ? reactRouterProduction() : [] },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/realtime': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // One stylesheet for every screen (the screens' own CSS is ~12 KB raw, ~3 KB brotli in all): a screen's
    // chunk with CSS of its own would otherwise wait for that stylesheet, one more round trip before it shows.
    cssCodeSplit: false,
    // dist/.vite/manifest.json: the chunk graph the first-load check and `npm run bench -- web` read.
    manifest: true,
    // Each route is its own chunk now; a chunk past this is worth a look.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry needs in one chunk: on a slow link each extra request costs a round
          // trip, and a browser opens only six connections to the portal. Route chunks split as usual.
          groups: [
            { name: 'shell', tags: ['$initial'] },
            // The login form's fields in one chunk rather than seven small ones (shared by the other forms).
            {
              name: 'form-fields',
              test: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Input|InputBase|TextInput|PasswordInput|CloseButton)[\\/]|[\\/]src[\\/](?:components[\\/]AuthCard|lib[\\/]usePageTitle)\./,
            },
          ],
        },
      },
    },
  },
}));
