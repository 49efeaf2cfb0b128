import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.MARGINS_API ?? 'http://localhost:3000';

/**
 * In development the React app is served by Vite and every call that is not a page load
 * (no `Accept: text/html`) goes to the API server, so `npm run dev -w web` next to
 * `npm run dev` gives hot reload against a real backend. Page loads get index.html without
 * a server-provided page configuration; the app then picks the page from the URL.
 */
const proxiedPrefixes = [
  '/auth',
  '/profile',
  '/contact',
  '/dev/mail',
  '/media',
  '/healthz',
  '/api',
  '/manuscript',
  '/comments',
  '/bookmark',
  '/invite',
  '/discover',
  '/report',
  '/payments',
  '/products',
  '/user',
  '/admin/api',
];

export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    // The server reads it to preload the chunk of the page it renders (pages/render.ts).
    manifest: true,
    assetsDir: 'assets',
    emptyOutDir: true,
    // NO_MINIFY=1: the functions keep their names, for reading a profile (bench/reader-profile.ts).
    minify: process.env.NO_MINIFY ? false : undefined,
    rolldownOptions: {
      // A schema is built by calls on `z`: pure, so a schema nothing uses is left out rather
      // than built at every start (with common's "sideEffects": false). Calls with an effect
      // must not go through `z` (lib/zod-without-eval.ts).
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Libraries change less often than the app: their own chunks stay cached.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/,
            },
            // zod-without-eval rides in zod's chunk, so zod is jitless before any chunk that
            // uses it runs (a top-level parse in a shared chunk would otherwise probe eval first).
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|zod-without-eval/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      proxiedPrefixes.map((prefix) => [
        prefix,
        {
          target: apiServer,
          changeOrigin: false,
          bypass: (request: { headers: { accept?: string } }) =>
            request.headers.accept?.includes('text/html') ? '/index.html' : undefined,
        },
      ]),
    ),
  },
});
