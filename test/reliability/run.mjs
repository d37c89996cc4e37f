// `npm run test:reliability`: crash, database outage, two instances (directly and through PgBouncer), a rolling upgrade from the previous
// release and sustained load against the production build on PostgreSQL (TEST_DATABASE_URL; each test
// creates and drops its own database).
// Builds dist/ first when it is missing or older than the sources. Flags pass through to the tests:
//   --soak-seconds=300 (default 30), --outage-seconds=10, --crash-payments=200, --only=crash,rolling,soak
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ROOT } from '../../scripts/built-app.mjs';

process.chdir(ROOT);
if (!process.env.TEST_DATABASE_URL) {
  console.error('test:reliability needs PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
  process.exit(1);
}

const run = (cmd, args) =>
  new Promise((resolve) => spawn(cmd, args, { stdio: 'inherit' }).on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

if (!(await ensureBuilt({ parts: ['server'] }))) process.exit(1);

const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.split('=')[1]
  ?.split(',');
const files = ['crash', 'outage', 'two-instances', 'pgbouncer', 'rolling', 'caches', 'soak']
  .filter((name) => !only || only.includes(name))
  .map((name) => path.join('test/reliability', `${name}.test.mjs`));
// Flags reach the test processes as environment: --soak-seconds=300 becomes RELIABILITY_SOAK_SECONDS=300.
for (const arg of process.argv.slice(2)) {
  const match = /^--([a-z-]+)=(.*)$/.exec(arg);
  if (match && match[1] !== 'only') process.env[`RELIABILITY_${match[1].replace(/-/g, '_').toUpperCase()}`] = match[2];
}
// One test file at a time: they share two cores and each starts its own servers.
// RELIABILITY_SUMMARY_FILE (set by `npm test` when it runs this suite): the counts, as JSON, go there too.
const summary = process.env.RELIABILITY_SUMMARY_FILE;
const reporters = summary
  ? [
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./test/reliability/summary-reporter.mjs',
      `--test-reporter-destination=${summary}`,
    ]
  : ['--test-reporter=spec'];
const code = await run(process.execPath, ['--test', '--test-concurrency=1', ...reporters, ...files]);
process.exit(code);
