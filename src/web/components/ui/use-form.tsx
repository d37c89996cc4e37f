import {
  useCallback,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type FormEvent,
  type FormHTMLAttributes,
  type ReactNode,
  type RefObject,
} from 'react';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { translateValidationMessage } from '#web/lib/validation-messages';

/**
 * The one form primitive of the web app (docs/decisions/0324-one-form-primitive.md). Every form states
 * what it checks and what it sends; the plumbing around it lives here once:
 *
 *   const form = useForm<'email' | 'password'>({
 *     schema: loginSchema, values: () => ({ email, password }),   // optional pre-check
 *     action: (data) => login.mutateAsync(data),                 // runs only when the pre-check passes
 *     formError: 'Could not log in',                              // fallback form-level text
 *   });
 *   <FormError form={form} />
 *   <Form form={form} aria-labelledby={titleId}>
 *     <TextField name="email" error={form.errors.email} ... />
 *     <StatusButton busy={form.busy} busyLabel="Logging in…" className="btn btn-primary">Log in</StatusButton>
 *   </Form>
 *
 * - Pre-check: the schema's issues (first per field, keyed by the issue's first path segment) and then
 *   `validate`'s errors. Any error stops the submit; nothing is sent.
 * - Failure: an ApiError's field errors (`err.fieldErrors`, renamed by `mapFieldErrors`) go onto the
 *   fields; the form-level message is `formError` (see FormErrorText).
 * - Focus: after a failed submit, the first element of the form (in DOM order) whose `name` has an
 *   error gets focus.
 * - Busy: `busy` is true while an asynchronous action runs, and a second submit meanwhile does nothing.
 */

/** Field errors keyed by field name (the `name` attribute of the field's control). */
export type FieldErrors<F extends string = string> = Partial<Record<F, string>>;

/**
 * The form-level message after a failed action:
 * - a string: the fallback text for `errorMessage(err, fallback)` (the server's own words, or the
 *   client's for a missing answer, otherwise the fallback), shown only when no field error was mapped;
 * - a function: its answer for the error and the field errors that were mapped (null for none).
 */
export type FormErrorText = string | ((err: unknown, fieldErrors: Record<string, string>) => string | null);

export interface UseFormOptions<F extends string, S extends z.ZodType | undefined, R> {
  /** Runs at the start of each submit that is not ignored as a double submit, before the pre-check (e.g. to clear a success notice). */
  beforeSubmit?: () => void;
  /** Checked against `values()` before the action runs; its issues become field errors. */
  schema?: S;
  /** What the schema checks (required with `schema`). */
  values?: () => unknown;
  /** Further checks before the action; answer the field errors (an empty object when none). */
  validate?: () => FieldErrors<F> | null | undefined;
  /** The submit's work. Receives the schema's parsed output (undefined without a schema). Throw to fail. */
  action: (data: S extends z.ZodType ? z.output<S> : undefined) => Promise<R> | R;
  /** After the action resolved. */
  onSuccess?: (result: R) => void;
  /** Sees a failure first; answer true when it handled it (nothing is mapped or shown then). */
  onError?: (err: unknown) => boolean | void;
  /** The form-level message after a failure; default 'Something went wrong. Please try again.'. */
  formError?: FormErrorText;
  /** Renames or filters the server's field errors before they go onto the fields. */
  mapFieldErrors?: (fields: Record<string, string>) => FieldErrors<F>;
  /**
   * Which failures move focus to the first invalid field: 'all' (default), 'precheck' only, or none;
   * or a function that moves it itself (called with the field errors after any failure that has some).
   */
  focus?: 'all' | 'precheck' | false | ((errors: FieldErrors<F>) => void);
  /** Clear a field's error when that field changes (an input/change event inside the <Form>). Default false. */
  clearOnChange?: boolean;
}

export interface FormState<F extends string = string> {
  /** Field errors, keyed by field name. */
  errors: FieldErrors<F>;
  setErrors: (errors: FieldErrors<F>) => void;
  /** Drops one field's error. */
  clearError: (name: F) => void;
  /** The form-level message, or null. */
  formError: string | null;
  setFormError: (message: string | null) => void;
  /** True while the action runs. */
  busy: boolean;
  /** The `onSubmit` of the form element. Also callable without an event (then no focus moves). */
  onSubmit: (event?: FormEvent<HTMLFormElement>) => Promise<void>;
  /** Clears field errors and the form-level message. */
  reset: () => void;
  /** Focuses the first control of the form whose name has an error in `errors`. */
  focusFirstError: (errors?: FieldErrors<F>) => void;
  /** The ref of the rendered <Form> (set by <Form>). */
  formRef: RefObject<HTMLFormElement | null>;
  /** For <Form>: clears a field's error on change when `clearOnChange` is set. */
  onFieldChange: (name: string) => void;
}

/**
 * The schema's issues as field errors: the first message per field (the issue's first path segment),
 * in the page's language (src/web/lib/validation-messages.ts).
 */
export function schemaFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    errors[key] ??= translateValidationMessage(issue.message);
  }
  return errors;
}

const DEFAULT_FORM_ERROR = msg`Something went wrong. Please try again.`;

/** The default form-level message in the page's language (English when none is active yet, as in unit tests). */
function defaultFormError(): string {
  return i18n.locale ? i18n._(DEFAULT_FORM_ERROR) : 'Something went wrong. Please try again.';
}

/** The server's field messages are the shared schemas' too: shown in the page's language. */
function translateFields(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, translateValidationMessage(message)]));
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}

/** The first control of `form`, in DOM order, whose name has an error. */
function firstInvalidControl(form: HTMLFormElement, errors: Record<string, string | undefined>): HTMLElement | null {
  for (const element of Array.from(form.elements)) {
    const name = element.getAttribute('name');
    if (name && errors[name] && element instanceof HTMLElement && typeof element.focus === 'function') return element;
  }
  return null;
}

export function useForm<F extends string = string, S extends z.ZodType | undefined = undefined, R = unknown>(
  options: UseFormOptions<F, S, R>,
): FormState<F> {
  const [errors, setErrorsState] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  // The latest options, so the returned handlers stay stable across renders and read fresh values.
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const errorsRef = useRef(errors);
  errorsRef.current = errors;

  const setErrors = useCallback((next: FieldErrors<F>) => setErrorsState(next), []);
  const clearError = useCallback(
    (name: F) =>
      setErrorsState((current) => {
        if (!current[name]) return current;
        const next = { ...current };
        delete next[name];
        return next;
      }),
    [],
  );
  const reset = useCallback(() => {
    setErrorsState({});
    setFormError(null);
  }, []);

  const focusFirstError = useCallback((which?: FieldErrors<F>) => {
    const form = formRef.current;
    if (!form) return;
    firstInvalidControl(form, (which ?? errorsRef.current) as Record<string, string | undefined>)?.focus();
  }, []);

  const onSubmit = useCallback(
    async (event?: FormEvent<HTMLFormElement>) => {
      event?.preventDefault();
      if (event?.currentTarget) formRef.current = event.currentTarget;
      if (busyRef.current) return;
      const opts = optionsRef.current;
      const focusOn = opts.focus ?? 'all';
      opts.beforeSubmit?.();

      // The pre-check.
      let data: unknown = undefined;
      let found: Record<string, string> = {};
      if (opts.schema) {
        const parsed = opts.schema.safeParse(opts.values ? opts.values() : undefined);
        if (parsed.success) data = parsed.data;
        else found = schemaFieldErrors(parsed.error);
      }
      const extra = opts.validate?.() ?? {};
      for (const [key, message] of Object.entries(extra) as Array<[string, string | undefined]>) {
        if (message) found[key] ??= message;
      }
      setFormError(null);
      if (hasErrors(found)) {
        setErrorsState(found as FieldErrors<F>);
        if (typeof focusOn === 'function') focusOn(found as FieldErrors<F>);
        else if (focusOn) focusFirstError(found as FieldErrors<F>);
        return;
      }
      setErrorsState({});

      busyRef.current = true;
      let result: R;
      try {
        const pending = opts.action(data as S extends z.ZodType ? z.output<S> : undefined);
        // Busy only while there is something to wait for: a synchronous action (a search, a step to a
        // confirmation) renders its outcome at once, without a busy frame in between.
        if (isPromiseLike(pending)) {
          setBusy(true);
          result = await pending;
        } else result = pending;
      } catch (err) {
        busyRef.current = false;
        setBusy(false);
        if (opts.onError?.(err) === true) return;
        const serverFields = err instanceof ApiError ? translateFields(err.fieldErrors) : {};
        const mapped = (opts.mapFieldErrors ? opts.mapFieldErrors(serverFields) : serverFields) as Record<string, string>;
        setErrorsState(mapped as FieldErrors<F>);
        const text = opts.formError ?? defaultFormError();
        setFormError(typeof text === 'function' ? text(err, mapped) : hasErrors(mapped) ? null : errorMessage(err, text));
        if (hasErrors(mapped)) {
          if (typeof focusOn === 'function') focusOn(mapped as FieldErrors<F>);
          else if (focusOn === 'all') focusFirstError(mapped as FieldErrors<F>);
        }
        return;
      }
      busyRef.current = false;
      setBusy(false);
      opts.onSuccess?.(result);
    },
    [focusFirstError],
  );

  const onFieldChange = useCallback(
    (name: string) => {
      if (optionsRef.current.clearOnChange) clearError(name as F);
    },
    [clearError],
  );

  return { errors, setErrors, clearError, formError, setFormError, busy, onSubmit, reset, focusFirstError, formRef, onFieldChange };
}

/**
 * `<form noValidate onSubmit>` wired to a useForm state. Any other form attribute passes through;
 * `onSubmit` may not (the state's is the one). `noValidate={false}` keeps the browser's own checks
 * (`required` and the like) for a form that has no pre-check of its own.
 */
export function Form<F extends string>({
  form,
  children,
  onChange,
  noValidate = true,
  ...props
}: { form: FormState<F>; children: ReactNode } & Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'>) {
  return (
    <form
      {...props}
      ref={form.formRef}
      noValidate={noValidate}
      onSubmit={(event) => void form.onSubmit(event)}
      onChange={(event) => {
        const name = (event.target as HTMLElement).getAttribute?.('name');
        if (name) form.onFieldChange(name);
        onChange?.(event);
      }}
    >
      {children}
    </form>
  );
}

/**
 * The form-level message as most forms show it: always present (so screen readers already know the
 * live region), empty until a submit fails.
 */
export function FormError({ form, className = 'form-error', id }: { form: Pick<FormState, 'formError'>; className?: string; id?: string }) {
  return (
    <div id={id} className={className} role="alert" aria-live="assertive">
      {form.formError}
    </div>
  );
}

/**
 * A submit button that says what it is doing: while `busy` it shows `busyLabel`, is disabled and
 * carries aria-busy. `disabled` adds other reasons to be disabled.
 */
export function StatusButton({
  busy,
  busyLabel,
  children,
  disabled,
  type = 'submit',
  ...props
}: { busy: boolean; busyLabel?: ReactNode; children: ReactNode } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button {...props} type={type} disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
