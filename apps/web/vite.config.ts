import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), precompress()],
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
});
