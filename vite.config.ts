import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import compileSourceMessages from './scripts/babel-compile-source-messages.mjs';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

/**
 * Lingui's macros (`t`, `<Trans>`) become message lookups at build time (decision 0326). Babel runs
 * only on the files that import a macro; every other file goes through Oxc alone, as before. The
 * Vitest web project uses the same plugins.
 */
export function linguiPlugins(): PluginOption[] {
  return [
    babel({
      presets: [
        {
          // The English text stays in the code, compiled; the catalogues hold the other languages
          // (decision 0329).
          preset: { plugins: [['@lingui/babel-plugin-lingui-macro', { stripMessageField: false }], compileSourceMessages] },
          rolldown: { filter: { code: /from ['"]@lingui\/(?:core|react)\/macro['"]/ } },
        },
      ],
    }),
    // Compiles a PO catalogue when it is imported: each language is a chunk of its own.
    lingui({ failOnCompileError: true }),
  ];
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [...linguiPlugins(), react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // bench/web.mjs reads it to size each route's chunk.
    manifest: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    // In development the API runs on its own port (npm run dev starts both).
    proxy: {
      '/api': apiTarget,
      '/sandbox': apiTarget,
      '/healthz': apiTarget,
      '/readyz': apiTarget,
    },
  },
});
