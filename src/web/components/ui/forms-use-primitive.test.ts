import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every form of the web app goes through the form primitive (docs/decisions/0324-one-form-primitive.md):
 * `<Form>` from use-form.tsx, which owns the field errors, the form-level message, focus and the busy
 * state. A raw `<form` element anywhere else is a form that hand-rolls that plumbing again, and is
 * refused here with its file's name.
 */
const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROOT = path.resolve(WEB, '../..');

/** The primitive itself: the one place that renders the element. */
const PRIMITIVE = 'src/web/components/ui/use-form.tsx';

/**
 * Forms not moved to the primitive yet. This list only shrinks: it must end empty. A file leaves it when
 * its forms are moved (the test below says when an entry is no longer needed); no file joins it.
 */
const NOT_YET_MOVED: readonly string[] = [
  'src/web/features/help/components/help-manager.tsx',
  'src/web/features/help/pages/help-page.tsx',
  'src/web/features/notifications/components/notification-preferences-panel.tsx',
  'src/web/features/payments/components/ledger-export-form.tsx',
  'src/web/features/payments/components/top-up-panel.tsx',
  'src/web/features/payments/pages/payment-process-page.tsx',
  'src/web/features/status/components/status-subscribe.tsx',
  'src/web/features/support-reports/components/support-reports-panel.tsx',
  'src/web/features/support-rules/components/automation-panel.tsx',
  'src/web/features/support-rules/components/rule-form.tsx',
  'src/web/features/support-sla/components/sla-settings-panel.tsx',
  'src/web/features/tickets/components/canned-replies-panel.tsx',
  'src/web/features/tickets/components/create-ticket-modal.tsx',
  'src/web/features/tickets/components/rating-form.tsx',
  'src/web/features/tickets/components/staff-queue.tsx',
  'src/web/features/tickets/components/ticket-tags.tsx',
  'src/web/features/tickets/components/ticket-thread.tsx',
  'src/web/features/two-factor/components/admin-two-factor-reset.tsx',
  'src/web/features/two-factor/components/login-second-step.tsx',
  'src/web/features/two-factor/components/passkeys-section.tsx',
  'src/web/features/two-factor/components/password-step.tsx',
  'src/web/features/two-factor/components/two-factor-settings.tsx',
  'src/web/features/webhooks/components/webhooks-panel.tsx',
];

/** The .tsx files under src/web that are not tests, as repository paths. */
function componentFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return componentFiles(full);
    return entry.name.endsWith('.tsx') && !/\.test\.tsx$/.test(entry.name) ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}

/** The source without its comments (block comments, JSX comments and whole-line // comments). */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** A raw form element: `<form` followed by a space, a line break, `>` or `/` (`<Form` is the primitive). */
const RAW_FORM = /<form[\s>/]/;

/** Whether a file's source renders a raw form element. */
const rendersRawForm = (source: string) => RAW_FORM.test(withoutComments(source));

describe('forms use the form primitive', () => {
  const files = componentFiles(WEB);

  it('finds the components (the scan itself works)', () => {
    expect(files).toContain(PRIMITIVE);
    expect(files).toContain('src/web/features/auth/components/auth-form.tsx');
    expect(files.some((f) => f.endsWith('.test.tsx'))).toBe(false);
  });

  it('no file renders a raw <form> outside the primitive (and the not-yet-moved list)', () => {
    const raw = files.filter(
      (f) => f !== PRIMITIVE && !NOT_YET_MOVED.includes(f) && rendersRawForm(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(raw, `these files render a raw <form>; use <Form> (or useForm) from ${PRIMITIVE}: ${raw.join(', ')}`).toEqual([]);
  });

  it('lists only files that still render a raw <form> (the list shrinks as forms move)', () => {
    const stale = NOT_YET_MOVED.filter((f) => !files.includes(f) || !rendersRawForm(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(stale, `remove these from NOT_YET_MOVED: ${stale.join(', ')}`).toEqual([]);
  });

  it('tells a raw form from the primitive, in any layout, and ignores comments', () => {
    expect(rendersRawForm('return <form onSubmit={submit}>')).toBe(true);
    expect(rendersRawForm('return (\n  <form\n    className="x"\n  >')).toBe(true);
    expect(rendersRawForm('return <form>')).toBe(true);
    expect(rendersRawForm('return <Form form={form}>')).toBe(false);
    expect(rendersRawForm('// a <form noValidate> once lived here\nreturn <Form form={form} />')).toBe(false);
    expect(rendersRawForm('/** wraps `<form noValidate onSubmit>` */ export function Form() {}')).toBe(false);
    expect(rendersRawForm('const formatted = <formatted-thing />')).toBe(false);
  });
});
