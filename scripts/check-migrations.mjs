#!/usr/bin/env node
// Rolling upgrades (docs/decisions/0307-rolling-upgrades-expand-and-contract.md): while a release rolls
// out, instances of the previous release keep serving on the database the new one has migrated. So a
// migration newer than the previous release (src/server/db/migrations/releases.json) may only add. It is
// refused when it drops, renames or narrows an object that existed before it (DROP TABLE / COLUMN /
// CONSTRAINT / INDEX / anything, TRUNCATE, RENAME, SET SCHEMA, ALTER COLUMN TYPE, SET NOT NULL, DROP
// DEFAULT, ADD COLUMN NOT NULL without a default), unless the statement is a contract step:
//   -- contract: <table.column> unread since <release>
// naming a release in the record older than the previous one, and the object is not declared by the
// previous release's tables (*.tables.ts at its commit, read through git; the current ones when that
// commit is not in this clone). Objects the checked migrations create themselves are free to change,
// and a constraint or index dropped and made again under its name in the same migration is replaced.
// Run by `npm run lint`; `node scripts/check-migrations.mjs` prints each refusal as file: statement.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MIGRATIONS_DIR = 'src/server/db/migrations';
export const RELEASES_FILE = `${MIGRATIONS_DIR}/releases.json`;

const CONTRACT = /--\s*contract:\s*([a-z0-9_.]+)\s+unread\s+since\s+(\S+)/gi;

/**
 * The statements of a migration, each with the contract markers written in the comments before it
 * (since the previous statement). Splits at `;` outside strings, quoted names, dollar quotes and
 * comments; comments are removed from `sql`, whitespace collapsed.
 * @param {string} text
 * @returns {{ sql: string, markers: { object: string, release: string }[] }[]}
 */
export function splitStatements(text) {
  const out = [];
  let sql = '';
  let comments = '';
  let i = 0;
  const flush = () => {
    const clean = sql.replace(/\s+/g, ' ').trim();
    if (clean)
      out.push({ sql: clean, markers: [...comments.matchAll(CONTRACT)].map((m) => ({ object: m[1].toLowerCase(), release: m[2] })) });
    if (clean) comments = '';
    sql = '';
  };
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('--')) {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      comments += `${text.slice(i, stop)}\n`;
      sql += ' ';
      i = stop;
    } else if (rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      comments += `${text.slice(i, stop)}\n`;
      sql += ' ';
      i = stop;
    } else if (rest[0] === "'" || rest[0] === '"') {
      const quote = rest[0];
      let j = i + 1;
      while (j < text.length && !(text[j] === quote && text[j + 1] !== quote)) j += text[j] === quote ? 2 : 1;
      sql += text.slice(i, j + 1);
      i = j + 1;
    } else if (rest[0] === '$' && /^\$[A-Za-z_]*\$/.test(rest)) {
      const tag = /^\$[A-Za-z_]*\$/.exec(rest)[0];
      const end = text.indexOf(tag, i + tag.length);
      const stop = end === -1 ? text.length : end + tag.length;
      sql += text.slice(i, stop);
      i = stop;
    } else if (rest[0] === ';') {
      flush();
      i += 1;
    } else {
      sql += rest[0];
      i += 1;
    }
  }
  flush();
  return out;
}

const NAME = String.raw`(?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?`;
/** `"public"."users"` and `users` are both `users`: the schema is dropped, quotes removed, lower case. */
const bare = (name) => name.split('.').pop().replace(/"/g, '').toLowerCase();

/** Splits at top-level commas (not inside parentheses or quotes). */
function topLevel(list) {
  const parts = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of list) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/**
 * What one statement does to the schema: the objects it creates (so later statements of the same release
 * may change them freely) and its destructive changes. Objects are `table`, `table.column`,
 * `table.constraint` or an index/other object's name.
 * @param {string} sql one statement, as splitStatements answers it
 * @returns {{ creates: string[], destroys: { object: string, what: string, table?: string }[], refuses: { table: string, problem: string }[] }}
 *   `refuses`: changes no marker can excuse (they break the previous release's writes)
 */
export function classify(sql) {
  const creates = [];
  const destroys = [];
  const refuses = [];
  let m;
  if ((m = new RegExp(String.raw`^CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(${NAME})`, 'i').exec(sql))) {
    creates.push(bare(m[1]));
  } else if (
    (m = new RegExp(String.raw`^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(${NAME})\s+ON\s`, 'i').exec(
      sql,
    ))
  ) {
    creates.push(bare(m[1]));
  } else if ((m = new RegExp(String.raw`^ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(${NAME})\s+(.*)$`, 'is').exec(sql))) {
    const table = bare(m[1]);
    for (const action of topLevel(m[2])) {
      let a;
      if (
        (a = new RegExp(String.raw`^ADD\s+(?:COLUMN\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(${NAME})\s+(.*)$`, 'is').exec(action)) &&
        !/^(CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN|EXCLUDE)$/i.test(a[1])
      ) {
        const column = bare(a[1]);
        creates.push(`${table}.${column}`);
        const rest = a[2];
        if (/\bNOT\s+NULL\b/i.test(rest) && !/\bDEFAULT\b|\bGENERATED\b/i.test(rest)) {
          refuses.push({
            table,
            problem: `ADD COLUMN ${table}.${column} NOT NULL without a default: the previous release's inserts do not set it`,
          });
        }
      } else if ((a = new RegExp(String.raw`^ADD\s+CONSTRAINT\s+(${NAME})`, 'i').exec(action))) {
        creates.push(`${table}.${bare(a[1])}`);
      } else if (
        (a = new RegExp(String.raw`^DROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?(${NAME})`, 'i').exec(action)) &&
        !/^CONSTRAINT$/i.test(a[1])
      ) {
        destroys.push({ object: `${table}.${bare(a[1])}`, table, what: 'DROP COLUMN' });
      } else if ((a = new RegExp(String.raw`^DROP\s+CONSTRAINT\s+(?:IF\s+EXISTS\s+)?(${NAME})`, 'i').exec(action))) {
        destroys.push({ object: `${table}.${bare(a[1])}`, table, what: 'DROP CONSTRAINT' });
      } else if (/^RENAME\s+TO\s/i.test(action) || /^SET\s+SCHEMA\s/i.test(action)) {
        destroys.push({ object: table, what: /^RENAME/i.test(action) ? 'RENAME TABLE' : 'SET SCHEMA' });
      } else if ((a = new RegExp(String.raw`^RENAME\s+(COLUMN\s+|CONSTRAINT\s+)?(${NAME})\s+TO\s`, 'i').exec(action))) {
        const kind = (a[1] ?? 'COLUMN').trim().toUpperCase() || 'COLUMN';
        destroys.push({ object: `${table}.${bare(a[2])}`, table, what: `RENAME ${kind}` });
      } else if ((a = new RegExp(String.raw`^ALTER\s+(?:COLUMN\s+)?(${NAME})\s+(.*)$`, 'is').exec(action))) {
        const column = `${table}.${bare(a[1])}`;
        const change = a[2];
        if (/^(SET\s+DATA\s+)?TYPE\s/i.test(change)) destroys.push({ object: column, table, what: 'ALTER COLUMN TYPE' });
        else if (/^SET\s+NOT\s+NULL/i.test(change)) destroys.push({ object: column, table, what: 'SET NOT NULL' });
        else if (/^DROP\s+DEFAULT/i.test(change)) destroys.push({ object: column, table, what: 'DROP DEFAULT' });
        else if (/^DROP\s+(IDENTITY|EXPRESSION)/i.test(change)) destroys.push({ object: column, table, what: 'ALTER COLUMN DROP' });
      }
    }
  } else if (
    (m =
      /^ALTER\s+(INDEX|SEQUENCE|VIEW|MATERIALIZED\s+VIEW|TYPE|FUNCTION|TRIGGER|SCHEMA)\s+(?:IF\s+EXISTS\s+)?(\S+)\s+(RENAME|SET\s+SCHEMA|DROP\s+VALUE)/i.exec(
        sql,
      ))
  ) {
    destroys.push({ object: bare(m[2].replace(/\(.*$/, '')), what: `ALTER ${m[1].toUpperCase()} ${m[3].toUpperCase()}` });
  } else if (
    (m =
      /^DROP\s+(TABLE|INDEX|VIEW|MATERIALIZED\s+VIEW|SEQUENCE|TYPE|FUNCTION|TRIGGER|SCHEMA|POLICY|RULE|DOMAIN|EXTENSION)\s+(?:CONCURRENTLY\s+)?(?:IF\s+EXISTS\s+)?(.*)$/is.exec(
        sql,
      ))
  ) {
    const kind = m[1].toUpperCase().replace(/\s+/g, ' ');
    let targets = m[2].replace(/\s+(CASCADE|RESTRICT)\s*$/i, '');
    let table;
    if (/^(TRIGGER|POLICY|RULE)$/.test(kind)) {
      const on = /^(\S+)\s+ON\s+(\S+)/i.exec(targets);
      table = on ? bare(on[2]) : undefined;
      targets = on ? on[1] : targets;
    }
    for (const target of topLevel(targets.replace(/\([^)]*\)/g, ''))) {
      const name = bare(target.trim());
      destroys.push(
        table
          ? { object: `${table}.${name}`, table, what: `DROP ${kind}` }
          : { object: name, ...(kind === 'TABLE' ? { table: name } : {}), what: `DROP ${kind}` },
      );
    }
  } else if ((m = /^TRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?(.*)$/is.exec(sql))) {
    for (const target of topLevel(m[1].replace(/\s+(RESTART|CONTINUE)\s+IDENTITY.*$|\s+(CASCADE|RESTRICT)\s*$/i, ''))) {
      destroys.push({ object: bare(target), table: bare(target), what: 'TRUNCATE' });
    }
  }
  return { creates, destroys, refuses };
}

/**
 * Tables and the names each declares (columns, indexes, constraints) in Drizzle *.tables.ts sources:
 * every `pgTable('name', ...)` and the first string argument of each call inside it.
 * @param {string[]} sources
 * @returns {Map<string, Set<string>>}
 */
export function declaredTables(sources) {
  const tables = new Map();
  for (const source of sources) {
    for (const m of source.matchAll(/pgTable\(\s*['"]([\w]+)['"]\s*,/g)) {
      // The table's arguments: up to the parenthesis that closes pgTable(.
      let depth = 1;
      let j = m.index + m[0].length;
      for (; j < source.length && depth > 0; j++) {
        if (source[j] === '(') depth += 1;
        else if (source[j] === ')') depth -= 1;
      }
      const body = source.slice(m.index + m[0].length, j);
      const names = tables.get(m[1]) ?? new Set();
      for (const call of body.matchAll(/\b\w+\(\s*['"]([\w]+)['"]/g)) names.add(call[1]);
      tables.set(m[1], names);
    }
  }
  return tables;
}

/** Whether the previous release's tables name `object` (`table`, `table.name`, or a bare index name). */
function declares(tables, object) {
  const [first, second] = object.split('.');
  if (second) return tables.get(first)?.has(second) ?? false;
  if (tables.has(first)) return true;
  return [...tables.values()].some((names) => names.has(first));
}

/**
 * Refusals for the migrations of the next release.
 * @param {object} input
 * @param {{ name: string, sql: string }[]} input.migrations newer than the previous release, in order
 * @param {{ name: string, commit: string, lastMigration: string }[]} input.releases oldest first; the last is the previous release
 * @param {Map<string, Set<string>>} input.previousTables what the previous release's tables declare
 * @returns {{ file: string, statement: string, problem: string }[]}
 */
export function checkMigrations({ migrations, releases, previousTables }) {
  const problems = [];
  const previous = releases.at(-1);
  const created = new Set();
  const isNew = (object) => created.has(object) || created.has(object.split('.')[0]);
  for (const { name, sql } of migrations) {
    const statements = splitStatements(sql);
    // A constraint or index dropped and made again under its name in the same migration is replaced
    // (a CHECK widened to a new value), not removed.
    const remade = new Set(statements.flatMap((s) => classify(s.sql).creates));
    for (const { sql: statement, markers } of statements) {
      const { creates, destroys, refuses } = classify(statement);
      const short = statement.length > 120 ? `${statement.slice(0, 117)}...` : statement;
      for (const { table, problem } of refuses) if (!created.has(table)) problems.push({ file: name, statement: short, problem });
      for (const change of destroys) {
        if (isNew(change.object)) continue;
        if (/^DROP (CONSTRAINT|INDEX)$/.test(change.what) && remade.has(change.object)) continue;
        const marker = markers.find((k) => k.object === change.object || k.object.split('.').pop() === change.object);
        if (!marker) {
          problems.push({
            file: name,
            statement: short,
            problem: `${change.what} of ${change.object}, which existed before this release: the previous release (${previous?.name ?? 'none'}) may read it. Add, backfill and switch first; drop in a later release with "-- contract: ${change.object} unread since <release>"`,
          });
          continue;
        }
        const at = releases.findIndex((r) => r.name === marker.release);
        if (at === -1) {
          problems.push({
            file: name,
            statement: short,
            problem: `contract step names release "${marker.release}", which is not in ${RELEASES_FILE}`,
          });
        } else if (at >= releases.length - 1) {
          problems.push({
            file: name,
            statement: short,
            problem: `contract step: "${marker.release}" is the previous release; ${change.object} may be dropped only once a release older than the previous one (${previous.name}) stopped reading it`,
          });
        } else if (declares(previousTables, change.object)) {
          problems.push({
            file: name,
            statement: short,
            problem: `contract step: the previous release (${previous.name}) still declares ${change.object} in its tables`,
          });
        }
      }
      for (const object of creates) created.add(object);
    }
  }
  return problems;
}

/** The migrations after `lastMigration` ("0035_ad_delivery_rows"), by file name. */
export function migrationsAfter(lastMigration, dir = path.join(ROOT, MIGRATIONS_DIR)) {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
  if (!files.includes(`${lastMigration}.sql`))
    throw new Error(`${RELEASES_FILE}: last migration ${lastMigration}.sql is not in ${MIGRATIONS_DIR}`);
  return files.filter((f) => f > `${lastMigration}.sql`).map((f) => ({ name: f, sql: readFileSync(path.join(dir, f), 'utf8') }));
}

/** The *.tables.ts sources of `commit` through git, or null when git or the commit is not here. */
export function tablesAtCommit(commit, root = ROOT) {
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  try {
    const files = git('ls-tree', '-r', '--name-only', commit, 'src/server')
      .split('\n')
      .filter((f) => f.endsWith('.tables.ts'));
    if (!files.length) return null;
    return files.map((f) => git('show', `${commit}:${f}`));
  } catch {
    return null;
  }
}

function currentTables(dir = path.join(ROOT, 'src/server')) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...currentTables(full));
    else if (entry.name.endsWith('.tables.ts')) out.push(readFileSync(full, 'utf8'));
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { releases } = JSON.parse(readFileSync(path.join(ROOT, RELEASES_FILE), 'utf8'));
  const previous = releases.at(-1);
  const migrations = migrationsAfter(previous.lastMigration);
  let sources = tablesAtCommit(previous.commit);
  if (!sources) {
    console.log(
      `check-migrations: commit ${previous.commit} (release ${previous.name}) is not in this clone; contract steps are checked against the current tables instead`,
    );
    sources = currentTables();
  }
  const problems = checkMigrations({ migrations, releases, previousTables: declaredTables(sources) });
  for (const p of problems) console.error(`${MIGRATIONS_DIR}/${p.file}: ${p.problem}\n    ${p.statement}`);
  if (problems.length) {
    console.error(
      `\n${problems.length} migration statement(s) would break the previous release during a rolling upgrade (docs/decisions/0307-rolling-upgrades-expand-and-contract.md).`,
    );
    process.exit(1);
  }
  console.log(`check-migrations: ${migrations.length} migration(s) after release ${previous.name} (${previous.lastMigration}) only add`);
}
