import { describe, expect, it } from 'vitest';
import { checkRepository, classesOf, declaredScope, owns, scopeProblems, selectors } from './check-css-scope.mjs';

const BASE = `:root {
  --bg: #0b1020;
}

body {
  margin: 0;
}

input[type='checkbox']:disabled {
  opacity: 0.55;
}

@media (prefers-reduced-motion: reduce) {
  * {
    transition-duration: 0.01ms !important;
  }
}
`;

const UI = `/* scope: btn- field- */

/* Buttons. */
.btn {
  min-height: 44px;
}

.btn-primary:hover,
.btn[aria-disabled='true'] {
  opacity: 0.55;
}

.field label {
  font-weight: 600;
}
`;

const TICKETS = `/* scope: ticket- queue- */
.ticket-row .btn {
  width: 100%;
}

.queue-filters > .field {
  margin: 0;
}

@media (max-width: 900px) {
  .ticket-row:has(> .ticket-status[data-state='open']) {
    display: block;
  }
}

@keyframes ticket-spin {
  from {
    transform: rotate(0);
  }
  to {
    transform: rotate(1turn);
  }
}
`;

const clean = [
  ['src/web/styles.css', BASE],
  ['src/web/components/ui/ui.css', UI],
  ['src/web/features/tickets/tickets.css', TICKETS],
];
const options = { base: 'src/web/styles.css', notYetScoped: [] };

describe('check-css-scope: every stylesheet keeps to the prefixes it declares', () => {
  it('passes stylesheets that keep the rule', () => {
    expect(scopeProblems(clean, options)).toEqual([]);
  });

  it('reads the scope comment, the selectors and their classes', () => {
    expect(declaredScope(TICKETS)).toEqual(['ticket-', 'queue-']);
    expect(declaredScope('.x {}')).toBeNull();
    expect(selectors(TICKETS).map((s) => s.selector)).toEqual([
      '.ticket-row .btn',
      '.queue-filters > .field',
      ".ticket-row:has(> .ticket-status[data-state='open'])",
    ]);
    expect(classesOf(".a.b:not(.c) > d[data-x='.e']")).toEqual(['a', 'b', 'c']);
    expect(owns('ticket-', 'ticket')).toBe(true);
    expect(owns('ticket-', 'ticket-row')).toBe(true);
    expect(owns('ticket-', 'tickets')).toBe(false);
  });

  it('fails a file that defines a class outside its prefixes', () => {
    const problems = scopeProblems(
      [...clean, ['src/web/features/help/help.css', '/* scope: help- */\n.help-card {\n}\n\n.btn-danger {\n  color: red;\n}\n']],
      options,
    );
    expect(problems).toEqual(["src/web/features/help/help.css:5: `.btn-danger` names no class of this file's scope (help-)"]);
  });

  it('fails a selector that leans on a class no file owns, a file without a scope, and an element rule in a feature', () => {
    const problems = scopeProblems(
      [
        ...clean,
        ['src/web/features/help/help.css', '/* scope: help- */\n.help-card.is-active {\n}\n\ntable th {\n}\n'],
        ['src/web/features/ads/ads.css', '.ad-slot {\n}\n'],
      ],
      options,
    );
    expect(problems).toEqual([
      'src/web/features/ads/ads.css:1: no scope comment; open the file with /* scope: prefix- … */',
      "src/web/features/help/help.css:2: `.is-active` in `.help-card.is-active` belongs to no file's scope",
      "src/web/features/help/help.css:5: `table th` names no class of this file's scope (help-)",
    ]);
  });

  it('fails two files that own one prefix, or a prefix inside another file’s', () => {
    const problems = scopeProblems(
      [
        ...clean,
        ['src/web/features/queue/queue.css', '/* scope: queue- */\n.queue-row {\n}\n'],
        ['src/web/features/status/status.css', '/* scope: ticket-status- */\n.ticket-status-open {\n}\n'],
      ],
      options,
    );
    expect(problems).toEqual([
      'the prefix `ticket-status-` of src/web/features/status/status.css lies inside `ticket-` of src/web/features/tickets/tickets.css',
      'the prefix `queue-` is owned by both src/web/features/tickets/tickets.css and src/web/features/queue/queue.css',
    ]);
  });

  it('fails a feature rule added to the base', () => {
    const problems = scopeProblems([['src/web/styles.css', `${BASE}\n.ticket-row {\n  display: flex;\n}\n`], ...clean.slice(1)], options);
    expect(problems).toEqual([
      'src/web/styles.css:19: `.ticket-row` is a class rule in the base; move it to the file of the feature or component that uses it',
    ]);
  });

  it('skips the files not yet moved, and fails once one of them is scoped or gone', () => {
    const legacy = ['src/web/features/help/help.css', '.btn-danger {\n}\n'];
    expect(scopeProblems([...clean, legacy], { ...options, notYetScoped: [legacy[0]] })).toEqual([]);
    expect(
      scopeProblems([...clean, ['src/web/features/help/help.css', '/* scope: help- */\n.help-card {\n}\n']], {
        ...options,
        notYetScoped: ['src/web/features/help/help.css', 'src/web/features/gone/gone.css'],
      }),
    ).toEqual([
      'src/web/features/help/help.css declares a scope; remove it from NOT_YET_SCOPED',
      'src/web/features/gone/gone.css is in NOT_YET_SCOPED but does not exist; remove it from the list',
    ]);
  });

  it('passes the repository as it is', () => {
    expect(checkRepository()).toEqual([]);
  });
});
