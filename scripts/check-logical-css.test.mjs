import { describe, expect, it } from 'vitest';
import { declarations, logicalProblems, physical } from './check-logical-css.mjs';

const LOGICAL = `/* scope: card- */

/* A card: margin-left is only named in this comment. */
.card {
  margin-inline-start: auto;
  padding: 8px 12px;
  padding-block: 6px;
  padding-inline: 6px 12px;
  inset-inline-end: 0;
  text-align: start;
  border-inline-start: 3px solid var(--accent);
  margin: 0 8px 12px 8px;
}

@media (max-width: 640px) {
  .card a:hover {
    text-align: end;
  }
}
`;

const PHYSICAL = `/* scope: card- */
.card {
  margin-left: auto;
  right: 0;
}

@media (max-width: 640px) {
  .card-title,
  .card-body {
    text-align: left;
    padding: 6px 12px 6px 6px;
    float: right;
    border-left-color: red;
  }
}
`;

describe('check-logical-css', () => {
  it('reads declarations with their selector and line, inside @media too', () => {
    const found = declarations(PHYSICAL);
    expect(found[0]).toEqual({ selector: '.card', property: 'margin-left', value: 'auto', line: 3 });
    expect(found.find((d) => d.property === 'float')).toMatchObject({ selector: '.card-title, .card-body', line: 12 });
  });

  it('passes logical properties and symmetric shorthands', () => {
    expect(logicalProblems([['src/web/card.css', LOGICAL]])).toEqual([]);
  });

  it('fails on every physical side, naming the file, the line and the logical form', () => {
    const problems = logicalProblems([['src/web/card.css', PHYSICAL]], { allowed: [] });
    expect(problems).toEqual([
      expect.stringMatching(/^src\/web\/card\.css:3: margin-left is physical; write margin-inline-start/),
      expect.stringMatching(/^src\/web\/card\.css:4: right is physical; write inset-inline-end/),
      expect.stringMatching(/^src\/web\/card\.css:10: text-align: left is physical; write text-align: start/),
      expect.stringMatching(
        /^src\/web\/card\.css:11: padding: 6px 12px 6px 6px sets left and right apart; write padding-block: 6px 6px; padding-inline: 6px 12px/,
      ),
      expect.stringMatching(/^src\/web\/card\.css:12: float: right is physical/),
      expect.stringMatching(/^src\/web\/card\.css:13: border-left-color is physical; write border-inline-start-color/),
    ]);
  });

  it('lets an allowed place through, and fails on an allowance that matches nothing', () => {
    const allowed = [{ file: 'src/web/card.css', selector: '.card', property: 'right', why: 'test' }];
    const problems = logicalProblems([['src/web/card.css', PHYSICAL]], { allowed });
    expect(problems.some((p) => p.includes(':4:'))).toBe(false);
    expect(problems).toHaveLength(5);
    const stale = logicalProblems([['src/web/card.css', LOGICAL]], { allowed });
    expect(stale).toEqual([expect.stringContaining('matches nothing')]);
  });

  it('reads no physical side as logical', () => {
    expect(physical({ property: 'text-align', value: 'center' })).toBeNull();
    expect(physical({ property: 'inset', value: '0 auto auto 0' })).toMatch(/inset-inline: 0 auto/);
  });
});
