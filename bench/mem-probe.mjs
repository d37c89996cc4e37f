// Bench-only memory probe: `node --import ./bench/mem-probe.mjs dist/server/server.js` with
// MEM_PROBE_FILE=<path> appends one JSON line a second: process.memoryUsage() (rss, heapTotal, heapUsed,
// external, arrayBuffers), V8's heap spaces (committed size of new/old/code/large-object space) and
// /proc/self/smaps_rollup (anonymous vs file-backed resident memory). Never loaded by `npm start`.
import { appendFileSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.MEM_PROBE_FILE;
if (file) {
  const mib = (n) => Math.round(n / 104857.6) / 10;
  const rollup = () => {
    try {
      const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
      return { anonMiB: Math.round(kb('Anonymous') / 102.4) / 10, fileMiB: Math.round((kb('Rss') - kb('Anonymous')) / 102.4) / 10 };
    } catch {
      return {};
    }
  };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ''), mib(s.space_size)]));
    const line = {
      t: Date.now(),
      rssMiB: mib(m.rss),
      heapTotalMiB: mib(m.heapTotal),
      heapUsedMiB: mib(m.heapUsed),
      externalMiB: mib(m.external),
      arrayBuffersMiB: mib(m.arrayBuffers),
      spaces,
      ...rollup(),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000);
  timer.unref();
}
