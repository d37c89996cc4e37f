import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, checkRepository, problemsIn, slug } from './check-citations.mjs';

const repo = {
  decisionNumbers: new Set(['0040', '0170']),
  decisionFiles: new Set(['0040-credits-ledger-and-nowpayments', '0170-caches-invalidated-by-notify']),
  docs: new Map([
    ['product.md', new Set(['credits', 'guest-claims', 'error-codes'])],
    ['architecture.md', new Set(['caches'])],
    ['decisions/README.md', new Set()],
  ]),
};
const problems = (text) => problemsIn(text, repo).map((p) => p.text);

describe('check-citations: what a comment may cite', () => {
  it('refuses the outside notes, specification sections and issue numbers', () => {
    expect(problems('// Guest-ID is trusted only with its token (design.md section 4).')).toEqual(['design.md']);
    expect(problems(' * The storage keys of spec section 3 and the constants of spec sections 7 and 9.')).toEqual([
      'spec section 3',
      'spec sections 7',
    ]);
    expect(problems('/** Spec § 9: toasts. */')).toEqual(['Spec §']);
    expect(problems('// Issue 16: a challenge lives 5 minutes (see also issue #20).')).toEqual(['Issue 16', 'issue #20']);
    expect(problems('// every staff action is audited (issue "Operator console").')).toEqual(['issue "Operator console"']);
    expect(problems('// the statuses it accepts (spec: waiting ... expired)')).toEqual(['(spec:']);
    expect(problems('-- as spec.md says')).toEqual(['spec.md']);
    expect(problems('// (providers.md: 24 h is common practice)')).toEqual(['providers.md']);
  });

  it('accepts pointers into the repository that exist', () => {
    expect(
      problems(
        '// docs/product.md#credits, docs/product.md#guest-claims, #error-codes; decision 0040 and decisions 0040, 0170; ' +
          'docs/decisions/0170-caches-invalidated-by-notify.md; docs/decisions/0040; docs/architecture.md#caches; docs/decisions/README.md',
      ),
    ).toEqual([]);
    // Words that only look alike.
    expect(problems("// the spec payload; a tissue 3 ply; providers' docs; docs/providers-guide is prose")).toEqual([]);
  });

  it('refuses decisions, docs files and anchors that do not exist', () => {
    expect(problems('// decision 0123')).toEqual(['decision 0123']);
    expect(problems('// decisions 0040, 0999 and 0170')).toEqual(['decision 0999']);
    expect(problems('// docs/decisions/0999-nothing.md')).toEqual(['docs/decisions/0999-nothing.md']);
    expect(problems('// docs/decisions/0040-renamed-since.md.')).toEqual(['docs/decisions/0040-renamed-since.md.']);
    expect(problems('// see docs/howto.md')).toEqual(['docs/howto.md']);
    expect(problems('// docs/product.md#payments')).toEqual(['docs/product.md#payments']);
    expect(problems('// docs/product.md#credits, #nothing-here')).toEqual(['#nothing-here']);
  });

  it('names the line of each problem', () => {
    expect(problemsIn('a\n// issue 9\nb', repo)).toEqual([{ line: 2, text: 'issue 9', why: expect.stringContaining('issue') }]);
  });

  it('finds heading anchors as GitHub makes them', () => {
    expect(slug('Orders and charges')).toBe('orders-and-charges');
    expect(slug('`/payment/process`')).toBe('paymentprocess');
    const anchors = anchorsOf('# Title\n## Credits\n### Receipts\n```\n## Not a heading\n```\n## Credits\n<a id="custom"></a>');
    expect([...anchors].sort()).toEqual(['credits', 'credits-1', 'custom', 'receipts', 'title']);
  });
});

describe('check-citations: a whole repository', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'check-citations-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };

  it('scans src, e2e, test, bench and scripts, and reads docs/ for what exists', () => {
    write('docs/decisions/0040-credits.md', '# 0040 Credits\n');
    write('docs/product.md', '# Product\n## Credits\n');
    write('src/server/ok.ts', '// The ledger (docs/product.md#credits, decision 0040).\n');
    write('src/web/bad.tsx', '// The session (spec section 4).\n');
    write('e2e/x/bad.spec.ts', '// Issue 19, end to end.\n');
    write('test/reliability/bad.mjs', '// decision 0041\n');
    write('bench/bad.mjs', '// docs/performance.md#goals\n');
    write('scripts/bad.mjs', '// design.md section 2\n');
    write('node_modules/pkg/issue.js', '// issue 1\n');
    write('README.md', '// issue 2 (not scanned)\n');
    expect(
      checkRepository(root)
        .map((p) => `${p.file}:${p.line} ${p.text}`)
        .sort(),
    ).toEqual([
      'bench/bad.mjs:1 docs/performance.md#goals',
      'e2e/x/bad.spec.ts:1 Issue 19',
      'scripts/bad.mjs:1 design.md',
      'src/web/bad.tsx:1 spec section 4',
      'test/reliability/bad.mjs:1 decision 0041',
    ]);
  });

  it('passes on this repository', () => {
    expect(checkRepository()).toEqual([]);
  });
});
