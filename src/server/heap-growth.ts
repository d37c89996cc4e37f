import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept alive before it
 * collects again: 1 + HEAP_GROWING_PERCENT / 100 (docs/decisions/0193-memory.md). V8's own factor goes
 * up to 4 on a machine with a large heap limit, so a server with ~60 MB live kept ~150 MB of garbage
 * between collections: its resident memory was mostly dead objects.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The V8 flag the server sets, or null when the operator chose a value on node's command line
 * (`node --heap-growing-percent=N dist/server/server.js`; 0 gives V8 its own dynamic factor back).
 * NODE_OPTIONS cannot carry this flag.
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  const chosen = execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg));
  return chosen ? null : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Called first by the server's entry (`npm start`, the reliability suite and the benchmark run the same
 * one). The flag is read by V8 at each full collection, so setting it once the process runs takes
 * effect from the next collection on; it changes when the heap is collected, never what it holds.
 */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
