// `npm test`: every test the project has, in one command, ending with one plain summary line.
//
// 1. Vitest's server projects. Integration tests also run on PostgreSQL when TEST_DATABASE_URL is set
//    (src/server/test/test-app.ts reads it). They keep both cores busy on their own.
// 2. Playwright browser tests against the built app, in Debian's Chromium (never a downloaded
//    browser). The app is (re)built first when dist/ is missing or older than the sources.
//    Without Chromium they are skipped with a clear message, unless REQUIRE_BROWSER_TESTS=1 (CI),
//    where a missing browser or a run with no browser test is a failure.
//    Beside them, on the CPU the browser leaves idle while pages load: Vitest's web project (jsdom), and
//    with TEST_WITH_RELIABILITY=1 (CI) the reliability suite (test/reliability/), which spends most of
//    its time waiting for processes, outages and a cron minute. Their output is kept and printed whole
//    when the browser tests are done, so the three do not interleave (docs/decisions/0300-the-test-suite.md).
//
// Counts come from the runners' JSON reports, never from scraping their console output.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIsStale, ensureBuilt, freePort, ROOT } from './built-app.mjs';
import { chromiumPath } from './chromium-path.mjs';

process.chdir(ROOT);

const CHROMIUM = chromiumPath();
const REQUIRE_BROWSER = process.env.REQUIRE_BROWSER_TESTS === '1';
const WITH_RELIABILITY = process.env.TEST_WITH_RELIABILITY === '1';
const reportDir = mkdtempSync(path.join(tmpdir(), 'olympus-test-'));

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Seconds each test file took (Vitest: its own run; Playwright: its tests, which run in order in one worker). */
const fileSeconds = [];
/** The failed tests by name, repeated in the summary so the end of the output says what failed. */
const failedNames = [];
/** Wall-clock seconds of each runner. */
const runnerSeconds = {};
/** Problems that are not a failed test case (a runner crashed, a build failed); each counts as one failure. */
const problems = [];

function banner(text) {
  console.log(`\n=== ${text} ===`);
}

/**
 * Runs a command; resolves with its exit code. Its output is this process's, or with `logFile` goes to
 * that file (a runner working beside another, printed when both are done).
 */
function run(command, args, env = {}, logFile = undefined) {
  return new Promise((resolve) => {
    const fd = logFile ? openSync(logFile, 'w') : undefined;
    const stdio = fd === undefined ? 'inherit' : ['ignore', fd, fd];
    const child = spawn(command, args, { stdio, env: { ...process.env, ...env } });
    const done = (code) => {
      if (fd !== undefined) closeSync(fd);
      resolve(code);
    };
    child.on('error', (err) => {
      console.error(`could not run ${command}: ${err.message}`);
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/** Prints a log a runner wrote beside the browser tests, under its own banner. */
function printLog(title, logFile) {
  banner(title);
  try {
    process.stdout.write(readFileSync(logFile, 'utf8'));
  } catch {
    console.log('(no output)');
  }
}

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Says which databases the integration tests use, and fails fast when the PostgreSQL one is unreachable. */
async function checkPostgres() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log(
      'PostgreSQL: NOT included. Integration tests run on PGlite only ' +
        '(set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them on PostgreSQL too).',
    );
    return true;
  }
  const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    console.log(`PostgreSQL: included. Integration tests run on PGlite and on PostgreSQL at ${shown}.`);
    return true;
  } catch (err) {
    console.error(`PostgreSQL: FAILED. TEST_DATABASE_URL is set but ${shown} is unreachable: ${err.message}`);
    problems.push('PostgreSQL at TEST_DATABASE_URL is unreachable');
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Runs Vitest on the given projects. `name` labels its report and timings; with `logFile` its output
 * goes there instead of the console.
 */
async function runVitest(name, projects, logFile = undefined, env = {}) {
  if (!logFile) banner(`Unit and integration tests (Vitest: ${projects.join(', ')})`);
  const report = path.join(reportDir, `${name}.json`);
  const unhandledFile = path.join(reportDir, `${name}-unhandled.json`);
  const started = Date.now();
  const code = await run(
    bin('vitest'),
    [
      'run',
      ...projects.map((p) => `--project=${p}`),
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/vitest-unhandled-reporter.mjs',
      `--outputFile.json=${report}`,
    ],
    { VITEST_UNHANDLED_FILE: unhandledFile, ...env },
    logFile,
  );
  runnerSeconds[name] = (Date.now() - started) / 1000;
  const json = readJson(report);
  if (!json) {
    problems.push(`Vitest exited with code ${code} and wrote no report`);
    return;
  }
  for (const file of json.testResults ?? []) {
    if (file.startTime && file.endTime) fileSeconds.push([path.relative(ROOT, file.name), (file.endTime - file.startTime) / 1000]);
  }
  for (const file of json.testResults ?? []) {
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'failed') failedNames.push(`${path.relative(ROOT, file.name)} › ${a.fullName}${reason(a.failureMessages?.[0])}`);
    }
  }
  totals.passed += json.numPassedTests ?? 0;
  totals.failed += json.numFailedTests ?? 0;
  totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A test file that fails to load (syntax error, failing beforeAll) has no failed test of its own.
  for (const file of json.testResults ?? []) {
    const failedCases = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
    if (file.status === 'failed' && failedCases === 0) {
      problems.push(`${path.relative(ROOT, file.name)}: ${(file.message || 'failed to run').split('\n')[0]}`);
    }
  }
  // Errors outside any test (a rejection nobody awaited): each is a failure, named with where it was seen.
  // Errors of a file or a describe block (a hook that threw or timed out) come with the block's name.
  for (const error of readJson(unhandledFile) ?? []) {
    const where = [error.testFile && path.relative(ROOT, error.testFile), error.testName].filter(Boolean).join(' › ');
    const what = error.kind === 'suite' || error.kind === 'file' ? 'error outside a test' : 'unhandled';
    problems.push(`Vitest ${what} ${error.name}: ${error.message}${where ? ` (in ${where})` : ''}\n${error.stack}`);
  }
  if (code !== 0 && json.numFailedTests === 0 && problems.length === 0) {
    problems.push(`${name} exited with code ${code}`);
  }
}

/** The reliability suite (npm run test:reliability), its output into `logFile`, its counts from its summary reporter. */
async function runReliability(logFile) {
  const summaryFile = path.join(reportDir, 'reliability.json');
  const started = Date.now();
  const code = await run(process.execPath, ['test/reliability/run.mjs'], { RELIABILITY_SUMMARY_FILE: summaryFile }, logFile);
  runnerSeconds.Reliability = (Date.now() - started) / 1000;
  const summary = readJson(summaryFile);
  if (!summary) {
    problems.push(`the reliability suite exited with code ${code} and wrote no summary`);
    return;
  }
  totals.passed += summary.passed;
  totals.failed += summary.failed;
  totals.skipped += summary.skipped;
  for (const name of summary.failedNames) failedNames.push(`test/reliability: ${name}`);
  if (code !== 0 && summary.failed === 0) problems.push(`the reliability suite exited with code ${code}`);
  if (summary.passed + summary.failed === 0) problems.push('the reliability suite ran no test');
}

/** Builds the app when browser tests will run and dist/ is stale; false when the build failed. */
async function ensureBuild() {
  if (!existsSync(CHROMIUM)) return true;
  if (!buildIsStale()) {
    console.log('dist/ is up to date with the sources.');
    return true;
  }
  const ok = await ensureBuilt({ announce: () => banner('Building the app (dist/ is missing or older than the sources)') });
  if (!ok) problems.push('npm run build failed; browser tests not run');
  return ok;
}

async function runPlaywright(buildOk) {
  banner('Browser tests (Playwright in Chromium)');
  if (!existsSync(CHROMIUM)) {
    const message = `SKIPPED browser tests: Chromium not found at ${CHROMIUM} (apt-get install chromium-headless-shell)`;
    if (REQUIRE_BROWSER) {
      console.error(`FAILED: ${message}; REQUIRE_BROWSER_TESTS=1 makes that a failure.`);
      problems.push('Chromium is missing but browser tests are required');
    } else {
      console.log(message);
    }
    return;
  }
  if (!buildOk) {
    console.error('Browser tests not run: the build failed.');
    return;
  }
  const report = path.join(reportDir, 'playwright.json');
  const port = process.env.E2E_PORT || String(await freePort());
  // Playwright empties its output folder when it starts: a folder of this run's own keeps a run next
  // to it (another developer's, on the same machine) from deleting this run's traces mid-test.
  const artifacts = mkdtempSync(path.join(tmpdir(), 'olympus-e2e-results-'));
  const started = Date.now();
  const code = await run(bin('playwright'), ['test', '--reporter=list,json', `--output=${artifacts}`], {
    CHROMIUM_PATH: CHROMIUM,
    E2E_PORT: port,
    PLAYWRIGHT_JSON_OUTPUT_FILE: report,
  });
  if (code === 0) rmSync(artifacts, { recursive: true, force: true });
  else console.log(`Screenshots and traces of the failed browser tests: ${artifacts}`);
  runnerSeconds.Playwright = (Date.now() - started) / 1000;
  const json = readJson(report);
  if (!json) {
    problems.push(`Playwright exited with code ${code} and wrote no report`);
    return;
  }
  collectFailedSpecs(json.suites ?? []);
  for (const suite of json.suites ?? []) {
    fileSeconds.push([path.join('e2e', suite.file), specMilliseconds(suite) / 1000]);
  }
  const stats = json.stats ?? {};
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  const failed = stats.unexpected ?? 0;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += stats.skipped ?? 0;
  // Errors outside any test: the web server did not start, a spec file does not compile, no tests found.
  for (const error of json.errors ?? []) {
    problems.push(`Playwright: ${(error.message ?? String(error)).split('\n')[0]}`);
  }
  if (code !== 0 && failed === 0 && (json.errors ?? []).length === 0) {
    problems.push(`Playwright exited with code ${code}`);
  }
  if (REQUIRE_BROWSER && passed + failed === 0) {
    problems.push('no browser test ran, but REQUIRE_BROWSER_TESTS=1 requires them');
  }
}

function collectFailedSpecs(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      if (spec.ok !== false) continue;
      const errors = (spec.tests ?? []).flatMap((t) => (t.results ?? []).flatMap((r) => r.errors ?? (r.error ? [r.error] : [])));
      failedNames.push(`e2e/${spec.file}:${spec.line} › ${spec.title}${reason(errors[0]?.message)}`);
    }
    collectFailedSpecs(suite.suites ?? []);
  }
}

/**
 * Why a test failed, in a few lines for the summary: CI may keep only the end of the output, and a
 * failure that only happens on a loaded machine must say there what it was.
 */
function reason(message) {
  if (!message) return '';
  const lines = String(message)
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/^\s+at\s/.test(line));
  const text = lines.slice(0, 8).join('\n    ');
  return `\n    ${text.length > 900 ? `${text.slice(0, 900)}…` : text}`;
}

/** Time spent in a Playwright suite's tests, nested suites included. */
function specMilliseconds(suite) {
  let ms = 0;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) for (const r of t.results ?? []) ms += r.duration ?? 0;
  }
  for (const child of suite.suites ?? []) ms += specMilliseconds(child);
  return ms;
}

/** Where the time went: each runner's wall clock and the 20 slowest files, so a slow file is seen early. */
function printTimings() {
  if (fileSeconds.length === 0) return;
  banner('Timings');
  for (const [runner, seconds] of Object.entries(runnerSeconds)) console.log(`${runner}: ${seconds.toFixed(0)} s`);
  console.log('The 20 slowest test files:');
  for (const [file, seconds] of [...fileSeconds].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${seconds.toFixed(1).padStart(8)} s  ${file}`);
  }
}

async function main() {
  banner('Olympus test suite');
  const postgresOk = await checkPostgres();
  if (postgresOk) {
    // Built before Vitest too, so the server's page-fallback tests serve the current app.
    const buildOk = await ensureBuild();
    // TEST_SKIP_SERVER=1 runs the second phase alone, to measure it (never set in CI).
    if (process.env.TEST_SKIP_SERVER !== '1') await runVitest('Vitest (server)', ['server', 'server-memory']);
    const webLog = path.join(reportDir, 'vitest-web.log');
    const reliabilityLog = path.join(reportDir, 'reliability.log');
    if (WITH_RELIABILITY)
      console.log('\nThe reliability suite and the web unit tests run beside the browser tests; their output follows them.');
    else console.log('\nThe web unit tests run beside the browser tests; their output follows them.');
    await Promise.all([
      runPlaywright(buildOk),
      // One worker: three jsdom workers beside two browsers and their server kept six processes wanting
      // two cores, and the pages the browser tests wait on came slowest then (decision 0327).
      runVitest('Vitest (web)', ['web'], webLog, { VITEST_MAX_WORKERS: process.env.VITEST_MAX_WORKERS ?? '1' }),
      WITH_RELIABILITY && buildOk ? runReliability(reliabilityLog) : undefined,
    ]);
    printLog('Unit tests of the web (Vitest: web), run beside the browser tests', webLog);
    if (WITH_RELIABILITY)
      printLog('Reliability (crash, database outage, two instances, short soak), run beside the browser tests', reliabilityLog);
  }

  rmSync(reportDir, { recursive: true, force: true });
  printTimings();
  banner('Summary');
  // On standard output with the rest of the summary: CI may keep only the end of one stream.
  for (const name of failedNames) console.log(`FAILED: ${name}`);
  for (const problem of problems) console.log(`FAILED: ${problem}`);
  if (totals.skipped > 0) console.log(`(${totals.skipped} tests were skipped)`);
  const failed = totals.failed + problems.length;
  console.log(`tests: ${totals.passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log(`tests: ${totals.passed} passed, ${totals.failed + problems.length + 1} failed`);
  process.exit(1);
});
