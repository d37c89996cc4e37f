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

describe('forms and dialogs use their primitives', () => {
  const files = componentFiles(WEB);

  it('finds the components (the scan itself works)', () => {
    expect(files).toContain(PRIMITIVE);
    expect(files).toContain('src/web/features/auth/components/auth-form.tsx');
    expect(files.some((f) => f.endsWith('.test.tsx'))).toBe(false);
  });

  it('no file renders a raw <form> outside the primitive', () => {
    const raw = files.filter((f) => f !== PRIMITIVE && rendersRawForm(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(raw, `these files render a raw <form>; use <Form> (or useForm) from ${PRIMITIVE}: ${raw.join(', ')}`).toEqual([]);
  });

  it('no file renders a raw <dialog> outside the Dialog primitive (dialog.tsx)', () => {
    const DIALOG = 'src/web/components/ui/dialog.tsx';
    expect(files).toContain(DIALOG);
    const raw = files.filter((f) => f !== DIALOG && /<dialog[\s>/]/.test(withoutComments(readFileSync(path.join(ROOT, f), 'utf8'))));
    expect(raw, `these files render a raw <dialog>; use <Dialog> from ${DIALOG}: ${raw.join(', ')}`).toEqual([]);
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
