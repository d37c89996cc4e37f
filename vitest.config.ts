import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// A busy machine (several test runs at once) can stretch an app's start past the defaults;
// TEST_TIMEOUT_SCALE=4 gives every test and hook four times as long. CI runs alone and leaves it at 1.
const scale = Math.max(1, Number(process.env.TEST_TIMEOUT_SCALE ?? 1) || 1);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.mjs'],
          testTimeout: 30_000 * scale,
          hookTimeout: 60_000 * scale,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx'],
          setupFiles: ['src/web/test/setup.ts'],
          testTimeout: 15_000 * scale,
        },
      },
    ],
  },
});
