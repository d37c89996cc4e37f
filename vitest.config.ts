import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';
import { linguiPlugins } from './vite.config.ts';

// A busy machine (several test runs at once) can stretch an app's start past the defaults;
// TEST_TIMEOUT_SCALE=4 gives every test and hook four times as long. CI runs alone and leaves it at 1.
const scale = Math.max(1, Number(process.env.TEST_TIMEOUT_SCALE ?? 1) || 1);

// Test files run side by side. Most server tests spend their time waiting on a database or a socket,
// so one more worker than there are cores keeps both cores busy (docs/decisions/0300-the-test-suite.md);
// VITEST_MAX_WORKERS overrides it.
const workers = Number(process.env.VITEST_MAX_WORKERS) || availableParallelism() + 1;

/**
 * The files that take minutes (each sends thousands of requests on both databases) start first, so the
 * run does not end with one of them alone on a core. Vitest orders the others by their last duration
 * when it has one, and by size on a clean checkout (CI), where these would otherwise start late.
 */
const LONGEST_FIRST = ['hostile-input', 'authorization-matrix', 'mutation-suite', 'server-process'].map(
  (name) => `src/server/test/contract/${name}.test.ts`,
);

class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keeps Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/** Server test files that assert on the process's own memory (RSS, buffers) while they run. */
const MEASURES_PROCESS_MEMORY = ['src/server/modules/privacy/data-export-large.test.ts'];

/** What every server test project shares: the node environment, the template databases and the time limits. */
const serverTests = {
  environment: 'node' as const,
  globalSetup: ['src/server/test/global-setup.ts'],
  testTimeout: 30_000 * scale,
  hookTimeout: 60_000 * scale,
};

export default defineConfig({
  test: {
    maxWorkers: workers,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'server',
          ...serverTests,
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.mjs'],
          exclude: [...configDefaults.exclude, ...MEASURES_PROCESS_MEMORY],
          // A worker runs its files one after another in one module graph, so Fastify, Drizzle and pg are
          // loaded and compiled once per worker instead of once per file: the server's files take half
          // the time (docs/decisions/0300-the-test-suite.md). What a file changes in a module's state
          // must not outlive it; every app a test starts is closed by that test.
          isolate: false,
        },
      },
      {
        // A file that measures the process's memory growth gets a process of its own: in a shared worker
        // the garbage other files left counted against it, and in a worker thread beside the others their
        // buffers counted too, since `arrayBuffers` is the whole process's (docs/decisions/0300-the-test-suite.md).
        test: { name: 'server-memory', ...serverTests, include: MEASURES_PROCESS_MEMORY, isolate: true, pool: 'forks' },
      },
      {
        plugins: [...linguiPlugins(), react()],
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
