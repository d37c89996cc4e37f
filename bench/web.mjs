// `npm run bench:web`: the front-end budget from the built app (dist/web and Vite's manifest).
//   - the JavaScript and CSS the home page loads before interaction, gzipped: the entry and its static
//     imports, the home route's chunk and its static imports, and the chunks those lazily load on first
//     render (the toaster, the ad slot, the exchange panel);
//   - each route's own chunk (its page module plus the static imports the entry does not already load).
// Lighthouse is not run: its current release needs Node 22.19 or later (`npm view lighthouse engines`),
// and this project runs on Node 20. Builds the web app first when dist/web is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../test/reliability/lib.mjs';

process.chdir(ROOT);
const WEB = path.join(ROOT, 'dist/web');
const MANIFEST = path.join(WEB, '.vite/manifest.json');
const HOME_BUDGET_KIB = 110;

if (!existsSync(MANIFEST) || process.argv.includes('--build')) {
  console.log('Building the web app (dist/web/.vite/manifest.json is missing)...');
  if (spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));

const sizeCache = new Map();
function sizes(file) {
  if (!sizeCache.has(file)) {
    const bytes = readFileSync(path.join(WEB, file));
    sizeCache.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return sizeCache.get(file);
}

/** Files a manifest entry loads with it: its chunk, its CSS, and the same for every static import. */
function closure(key, into = new Set()) {
  const entry = manifest[key];
  if (!entry || into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) closure(imported, into);
  return into;
}

function total(files) {
  const out = { js: 0, css: 0, raw: 0, files: files.size };
  for (const file of files) {
    const s = sizes(file);
    out.raw += s.raw;
    if (file.endsWith('.css')) out.css += s.gzip;
    else out.js += s.gzip;
  }
  return out;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const homeKey = Object.keys(manifest).find((k) => /marketing\/pages\/home-page\.tsx$/.test(k));
const entryFiles = closure(entryKey);
const critical = closure(homeKey, new Set(entryFiles));
const onRender = new Set(critical);
// The entry lazily imports every route; only its non-route lazy modules (the toaster) load with the home page.
const entryLazy = (manifest[entryKey].dynamicImports ?? []).filter((k) => !/pages\/[^/]+\.tsx$/.test(k));
for (const key of [...entryLazy, ...(manifest[homeKey]?.dynamicImports ?? [])]) closure(key, onRender);

const routes = Object.keys(manifest)
  .filter((k) => manifest[k].isDynamicEntry && /pages\/[^/]+\.tsx$/.test(k))
  .map((k) => {
    const own = new Set([...closure(k)].filter((f) => !entryFiles.has(f)));
    return { page: k, chunk: manifest[k].file, ...total(own) };
  })
  .sort((a, b) => b.js + b.css - (a.js + a.css));

const kib = (n) => (n / 1024).toFixed(1);
const home = { entryAndHomeRoute: total(critical), includingFirstRenderChunks: total(onRender) };
const result = {
  at: new Date().toISOString(),
  budgetKiB: { homeJavaScriptGzip: HOME_BUDGET_KIB },
  home,
  entry: total(entryFiles),
  routes,
  lighthouse: { ran: false, reason: 'lighthouse needs Node >= 22.19; this project runs on Node 20' },
};
mkdirSync('bench/results', { recursive: true });
const file = path.join('bench/results', `web-${result.at.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

console.log('Home page before interaction (gzip):');
console.log(`  entry + home route:            JS ${kib(home.entryAndHomeRoute.js)} KiB, CSS ${kib(home.entryAndHomeRoute.css)} KiB (${home.entryAndHomeRoute.files} files)`);
console.log(`  + chunks loaded on first render: JS ${kib(home.includingFirstRenderChunks.js)} KiB, CSS ${kib(home.includingFirstRenderChunks.css)} KiB (${home.includingFirstRenderChunks.files} files)`);
console.log(`  budget: JS under ${HOME_BUDGET_KIB} KiB -> ${home.includingFirstRenderChunks.js / 1024 < HOME_BUDGET_KIB ? 'met' : 'MISSED'}`);
console.log('\nEach route (its own chunk and imports the entry does not already load, gzip):');
for (const r of routes) console.log(`  ${r.page.padEnd(52)} JS ${kib(r.js).padStart(6)} KiB  CSS ${kib(r.css).padStart(5)} KiB`);
console.log(`\nLighthouse: not run (${result.lighthouse.reason}).`);
console.log(`Wrote ${file}`);
