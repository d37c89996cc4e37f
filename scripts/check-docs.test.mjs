import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRepository, decisionIndexProblems, docsProblems, moduleFolders, section } from './check-docs.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ARCHITECTURE = `# Architecture

## Layers

\`\`\`
src/server/
  db/                  the database
  modules/<domain>/    one folder per domain
\`\`\`

### Server modules

| module | owns |
|---|---|
| \`auth\` | sessions |
| \`api-keys\`, \`charges\` | keys and charges |

## Jobs

| job | when | what |
|---|---|---|
| \`mail.send\` | queued | sends mail |
`;

const INDEX = `| # | title |
|---|---|
| [0001](0001-one.md) | One |
| [0002](0002-two.md) | Two |
`;

const clean = {
  modules: ['auth', 'api-keys', 'charges'],
  serverFolders: ['db', 'modules'],
  sources: [
    ['src/server/modules/mail/mail.service.ts', "export const SEND_JOB = 'mail.send';\nctx.jobs.define({ name: SEND_JOB, handler });"],
  ],
  architecture: ARCHITECTURE,
  decisionIndex: INDEX,
  decisionFiles: ['0001-one.md', '0002-two.md'],
};

describe('check-docs: docs/architecture.md and the decision index follow the code', () => {
  it('passes a repository whose docs match it', () => {
    expect(docsProblems(clean)).toEqual([]);
  });

  it('names a module folder without a row, a server folder missing from the layer tree, and an unlisted job', () => {
    const problems = docsProblems({
      ...clean,
      modules: [...clean.modules, 'referrals'],
      serverFolders: [...clean.serverFolders, 'tracing'],
      sources: [...clean.sources, ['src/server/modules/referrals/referrals.module.ts', "export const PAYOUT_JOB = 'referrals.payout';"]],
    });
    expect(problems).toEqual([
      'architecture.md#server-modules: no row for the module `referrals`',
      'architecture.md#layers: the layer tree leaves out src/server/tracing/',
      'architecture.md#jobs: the job `referrals.payout` is not listed',
    ]);
  });

  it('refuses a job defined without a *_JOB constant, which the check could not see', () => {
    const problems = docsProblems({
      ...clean,
      sources: [...clean.sources, ['src/server/x.ts', "ctx.jobs.define({ name: 'x.hidden', handler });"]],
    });
    expect(problems).toEqual(["src/server/x.ts: jobs.define names its job with 'x.hidden', not a *_JOB constant"]);
  });

  it('wants a row for each part of a module and refuses a row that names no folder', () => {
    const architecture = ARCHITECTURE.replace('| `auth` | sessions |', '| `auth` | sessions |\n| `tickets` | tickets |');
    expect(docsProblems({ ...clean, modules: [...clean.modules, 'support', 'support/tickets'], architecture })).toEqual([
      'architecture.md#server-modules: no row for the module `support`',
      'architecture.md#server-modules: no row for the module `support/tickets`',
      'architecture.md#server-modules: the row `tickets` names no folder of src/server/modules',
    ]);
  });

  it('counts as parts the sub-folders of a module with their own routes or tables', () => {
    const modules = moduleFolders(path.join(ROOT, 'src/server/modules'));
    expect(modules).toContain('support');
    expect(modules).toContain('support/tickets');
    expect(modules).toContain('support/hours');
    expect(modules).not.toContain('mail/templates');
  });

  it('does not count a module named only in the text of another row', () => {
    const architecture = ARCHITECTURE.replace('| `auth` | sessions |', '| `auth` | sessions, read by `users` |');
    expect(docsProblems({ ...clean, modules: [...clean.modules, 'users'], architecture })).toEqual([
      'architecture.md#server-modules: no row for the module `users`',
    ]);
  });

  it('finds decision rows out of order, records without a row and rows without a record', () => {
    const swapped = INDEX.replace(
      '| [0001](0001-one.md) | One |\n| [0002](0002-two.md) | Two |',
      '| [0002](0002-two.md) | Two |\n| [0001](0001-one.md) | One |',
    );
    expect(decisionIndexProblems(swapped, clean.decisionFiles)).toEqual(['decisions/README.md: 0001 comes after 0002']);
    expect(decisionIndexProblems(INDEX, [...clean.decisionFiles, '0003-three.md'])).toEqual([
      'decisions/README.md: no row for 0003-three.md',
    ]);
    expect(decisionIndexProblems(INDEX, ['0001-one.md'])).toEqual([
      'decisions/README.md: row 0002 links to 0002-two.md, which does not exist',
    ]);
  });

  it('reads a section up to the next heading of its level or above, with its subsections', () => {
    expect(section(ARCHITECTURE, 'Jobs')).toContain('mail.send');
    expect(section(ARCHITECTURE, 'Server modules')).not.toContain('mail.send');
    expect(section(ARCHITECTURE, 'Layers')).toContain('| `auth`');
  });

  it('finds nothing out of step in this repository', () => {
    expect(checkRepository()).toEqual([]);
  });
});
