import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { translateValidationMessage } from '#web/lib/validation-messages';

/**
 * Form fields that wire their label, `aria-invalid`, `aria-describedby` and error message once
 * (after epic-stack's forms.tsx), so no form repeats it and none forgets it. The error is read with
 * the field; a note (a hint under the field) is read too when there is no error.
 */
interface FieldFrame {
  label: ReactNode;
  /** The field's error, if any: shown under it and announced with it. */
  error?: string | null;
  /** Also announce the error the moment it appears (role="alert"), for errors that come after a send. */
  errorAlert?: boolean;
  /** A hint under the field. */
  note?: ReactNode;
  /** The input's id; one is made when absent. */
  id?: string;
  className?: string;
}

function useFieldIds(id: string | undefined, error: string | null | undefined, note: ReactNode) {
  const fallback = useId();
  const fieldId = id ?? fallback;
  const errorId = `${fieldId}-error`;
  const noteId = `${fieldId}-note`;
  return {
    fieldId,
    errorId,
    noteId,
    control: {
      id: fieldId,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId : note ? noteId : undefined,
    },
  };
}

/**
 * The error, or else the note, under a field. A shared schema's message shows in the page's language
 * (src/web/lib/validation-messages.ts); the form around it renders again when the language changes.
 */
function FieldMessage({
  errorId,
  noteId,
  error,
  errorAlert,
  note,
}: Pick<FieldFrame, 'error' | 'errorAlert' | 'note'> & { errorId: string; noteId: string }) {
  return error ? (
    <p id={errorId} className="field-error" role={errorAlert ? 'alert' : undefined}>
      {translateValidationMessage(error)}
    </p>
  ) : note ? (
    <p id={noteId} className="field-note">
      {note}
    </p>
  ) : null;
}

function Frame({
  fieldId,
  errorId,
  noteId,
  label,
  error,
  errorAlert,
  note,
  className,
  children,
}: FieldFrame & { fieldId: string; errorId: string; noteId: string; children: ReactNode }) {
  return (
    <div className={className ?? 'field'}>
      <label htmlFor={fieldId}>{label}</label>
      {children}
      <FieldMessage errorId={errorId} noteId={noteId} error={error} errorAlert={errorAlert} note={note} />
    </div>
  );
}

export function TextField({
  label,
  error,
  errorAlert,
  note,
  id,
  className,
  ...input
}: FieldFrame & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  const { control, ...ids } = useFieldIds(id, error, note);
  return (
    <Frame {...ids} label={label} error={error} errorAlert={errorAlert} note={note} className={className}>
      <input {...input} {...control} />
    </Frame>
  );
}

export function TextareaField({
  label,
  error,
  errorAlert,
  note,
  id,
  className,
  ...textarea
}: FieldFrame & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  const { control, ...ids } = useFieldIds(id, error, note);
  return (
    <Frame {...ids} label={label} error={error} errorAlert={errorAlert} note={note} className={className}>
      <textarea {...textarea} {...control} />
    </Frame>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select over a list of options; plain strings are their own labels. */
export function SelectField({
  label,
  error,
  errorAlert,
  note,
  id,
  className,
  options,
  ...select
}: FieldFrame & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { options: ReadonlyArray<string | SelectOption> }) {
  const { control, ...ids } = useFieldIds(id, error, note);
  return (
    <Frame {...ids} label={label} error={error} errorAlert={errorAlert} note={note} className={className}>
      <select {...select} {...control}>
        {options.map((o) => {
          const option = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
    </Frame>
  );
}

/**
 * A checkbox with its label beside it and its note or error under the label (`.check-field` in
 * components/ui/ui.css). Pass role="switch" for a setting that takes effect at once.
 */
export function CheckboxField({
  label,
  error,
  errorAlert,
  note,
  id,
  className,
  ...input
}: FieldFrame & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'>) {
  const { control, fieldId, errorId, noteId } = useFieldIds(id, error, note);
  return (
    <div className={className ? `check-field ${className}` : 'check-field'}>
      <input type="checkbox" {...input} {...control} />
      <label htmlFor={fieldId}>{label}</label>
      <FieldMessage errorId={errorId} noteId={noteId} error={error} errorAlert={errorAlert} note={note} />
    </div>
  );
}
