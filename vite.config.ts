import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react()],
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
