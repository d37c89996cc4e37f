// The built app (dist/) as the scripts, benches and tests run it: is it stale, build it, make staff
// accounts with the operator command, start dist/server/server.js and wait until /readyz answers.
// One copy of all that, in plain JavaScript with JSDoc types so .mjs scripts and the Playwright
// TypeScript files import the same module.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_JS = path.join(ROOT, 'dist/server/server.js');
export const CLI_JS = path.join(ROOT, 'dist/server/cli.js');

/** @typedef {'server' | 'web'} BuildPart */

/** What each half of `npm run build` reads and writes (paths from ROOT), and the script that builds it alone. */
const PARTS = {
  server: {
    script: 'build:server',
    outputs: ['dist/server/server.js', 'dist/server/cli.js', 'dist/package.json'],
    inputs: ['src/server', 'src/shared', 'package.json', 'tsconfig.base.json', 'tsconfig.server.json'],
  },
  web: {
    script: 'build:web',
    outputs: ['dist/web/index.html', 'dist/web/.vite/manifest.json'],
    inputs: ['src/web', 'src/shared', 'package.json', 'tsconfig.base.json', 'tsconfig.web.json', 'vite.config.ts'],
  },
};

/** @type {BuildPart[]} */
const ALL_PARTS = ['server', 'web'];

/**
 * Newest modification time under `entry` (files only), ignoring test files, which the build leaves out.
 * @param {string} entry a path from ROOT, or absolute
 * @returns {number}
 */
export function newestMtime(entry) {
  const full = path.resolve(ROOT, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(full) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(full, name)));
  return newest;
}

/**
 * Whether a part of dist/ is missing or older than any of its inputs.
 * @param {BuildPart[]} [parts] default both halves
 * @returns {boolean}
 */
export function buildIsStale(parts = ALL_PARTS) {
  return parts.some((part) => {
    const { outputs, inputs } = PARTS[part];
    const files = outputs.map((f) => path.join(ROOT, f));
    if (!files.every((f) => existsSync(f))) return true;
    const builtAt = Math.min(...files.map((f) => statSync(f).mtimeMs));
    return Math.max(...inputs.map(newestMtime)) > builtAt;
  });
}

/**
 * Builds what is stale (or everything with `force`): `npm run build`, `build:server` or `build:web`,
 * under NODE_ENV=production whatever the caller's shell says, so Vite bundles React's production build.
 * @param {{ parts?: BuildPart[], force?: boolean, announce?: (script: string) => void }} [options]
 * @returns {Promise<boolean>} false when the build failed
 */
export async function ensureBuilt({ parts = ALL_PARTS, force = false, announce } = {}) {
  if (!force && !buildIsStale(parts)) return true;
  const script = parts.length === 1 && parts[0] ? PARTS[parts[0]].script : 'build';
  (announce ?? ((s) => console.log(`Building (npm run ${s}): dist/ is missing or older than the sources...`)))(script);
  const code = await new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    child.once('error', () => resolve(127));
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  return code === 0;
}

/**
 * A free loopback port (free when asked: another process may take it before it is used).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** @typedef {{ username: string, password: string, role?: 'user' | 'support' | 'admin' }} Account */
/** @typedef {Record<string, string | undefined>} Env values of `undefined` remove a variable */

/**
 * `process.env` with `env` over it; a value of `undefined` removes the variable.
 * @param {Env} env
 * @returns {Record<string, string>}
 */
function childEnv(env) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [key, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Makes an account with the operator command (`dist/server/cli.js create-user`), as an operator would:
 * there is no test-only door. It migrates the database first. On the embedded database it must run
 * before the server starts (one process per data directory).
 * @param {{ dataDir?: string, env?: Env, root?: string }} where the data directory, or the environment naming
 *   the database; `root`: another built checkout whose command runs (a previous release), default ROOT
 * @param {Account} account
 * @returns {Promise<void>}
 */
export async function createUser({ dataDir, env = {}, root = ROOT }, { username, password, role = 'user' }) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'dist/server/cli.js'), 'create-user', '--username', username, '--password', password, '--role', role],
    {
      cwd: root,
      env: childEnv({ LOG_LEVEL: 'silent', ...env, ...(dataDir ? { DATA_DIR: dataDir } : {}) }),
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-5000)));
  const code = await new Promise((resolve) => {
    child.once('error', (err) => resolve(err.message));
    child.once('exit', (c, signal) => resolve(c ?? signal));
  });
  if (code !== 0) throw new Error(`create-user ${username} (${role}) failed (${code}):\n${stderr}`);
}

/**
 * @typedef {object} BuiltServerOptions
 * @property {Env} [env] over `process.env` and the defaults HOST=127.0.0.1, PORT, DATA_DIR
 * @property {number} [port] default a free one
 * @property {string} [dataDir] default a fresh temporary directory, removed on stop
 * @property {Account[]} [users] made with the operator command before the server starts
 * @property {string[]} [nodeArgs] node options before the script (profilers, preloads)
 * @property {string[]} [program] what node runs after nodeArgs, default [SERVER_JS]; another server that
 *   answers /readyz (the bench's bare node:http ceiling) starts the same way
 * @property {string} [root] another built checkout to run (a previous release, test/reliability/rolling.test.mjs):
 *   its dist/server/server.js and operator command, from its directory; default ROOT
 * @property {number} [readyTimeoutMs] default 60 s
 * @property {boolean | 'stderr'} [captureOutput] true (default): both streams kept for output() and
 *   errors; 'stderr': stdout to /dev/null (a request log at `info` is large), stderr kept; false: both
 *   go to this process's
 * @property {string} [label] names the server in errors
 */

/**
 * @typedef {object} BuiltServer
 * @property {string} url http://127.0.0.1:<port>
 * @property {number} port
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {string} dataDir
 * @property {() => string} output the last 20,000 characters it wrote (what was captured)
 * @property {() => number | null} rssMiB resident set size in MiB (Linux /proc), null elsewhere or once gone
 * @property {(signal?: NodeJS.Signals) => Promise<void>} kill default SIGKILL; waits for the exit (SIGKILL
 *   after 15 s), then removes the temporary data directory
 * @property {() => Promise<void>} stop kill('SIGTERM'): a graceful shutdown
 */

/**
 * dist/server/server.js (or `program`) as a child process, answering once GET /readyz answers 200 (bounded). Fails
 * with what the server wrote when it exits during start or is not ready in time. Never outlives this
 * process.
 * @param {BuiltServerOptions} [options]
 * @returns {Promise<BuiltServer>}
 */
export async function startBuiltServer(options = {}) {
  const { env = {}, nodeArgs = [], root = ROOT, readyTimeoutMs = 60_000, captureOutput = true, label = 'server', users = [] } = options;
  const program = options.program ?? [path.join(root, 'dist/server/server.js')];
  const port = options.port ?? (await freePort());
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'olympus-app-'));
  const removeDir = () => {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const fullEnv = { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...env };
  try {
    for (const account of users) await createUser({ env: fullEnv, root }, account);
  } catch (err) {
    removeDir();
    throw err;
  }

  const child = spawn(process.execPath, [...nodeArgs, ...program], {
    cwd: root,
    env: childEnv(fullEnv),
    stdio: ['ignore', captureOutput === true ? 'pipe' : captureOutput ? 'ignore' : 'inherit', captureOutput ? 'pipe' : 'inherit'],
  });
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('error', (err) => keep(Buffer.from(`could not start: ${err.message}\n`)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => {
    if (gone()) resolve();
    else child.once('exit', () => resolve());
  });
  // An interrupted test run or script must not leave a server behind, nor its directory.
  const onExit = () => {
    if (!gone()) child.kill('SIGKILL');
    removeDir();
  };
  process.once('exit', onExit);

  /** @param {number} ms */
  const exitWithin = (ms) => {
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    return Promise.race([exited.then(() => true), new Promise((resolve) => (timer = setTimeout(() => resolve(false), ms)))]).finally(() =>
      clearTimeout(timer),
    );
  };
  /** @type {BuiltServer['kill']} */
  const kill = async (signal = 'SIGKILL') => {
    if (!gone()) child.kill(signal);
    if (!(await exitWithin(15_000))) {
      child.kill('SIGKILL');
      await exitWithin(5_000);
    }
    process.off('exit', onExit);
    removeDir();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (gone()) {
      await kill();
      throw new Error(`${label} exited during start (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`${label} not ready within ${Math.round(readyTimeoutMs / 1000)} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    port,
    child,
    pid: /** @type {number} */ (child.pid),
    dataDir,
    output: () => output,
    rssMiB() {
      try {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null;
      } catch {
        return null;
      }
    },
    kill,
    stop: () => kill('SIGTERM'),
  };
}
