import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '#web/lib/api-client';
import { TextField } from './forms';
import { Form, FormError, StatusButton, useForm, type UseFormOptions } from './use-form';

afterEach(cleanup);

const schema = z.object({
  name: z.string().min(1, 'Name is required'),
  email: z.string().email('Enter a valid email address'),
});

type Field = 'name' | 'email';

function Sample({
  action,
  options = {},
  initial = { name: '', email: '' },
}: {
  action: (data: z.output<typeof schema>) => Promise<unknown>;
  options?: Partial<UseFormOptions<Field, typeof schema, unknown>>;
  initial?: { name: string; email: string };
}) {
  const [name, setName] = useState(initial.name);
  const [email, setEmail] = useState(initial.email);
  const form = useForm<Field, typeof schema>({ schema, values: () => ({ name, email }), action, formError: 'Could not save', ...options });
  return (
    <>
      <FormError form={form} />
      <Form form={form} aria-label="sample">
        <TextField label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={form.errors.name} />
        <TextField label="Email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} error={form.errors.email} />
        <StatusButton busy={form.busy} busyLabel="Saving…" className="btn btn-primary">
          Save
        </StatusButton>
      </Form>
    </>
  );
}

const submit = () => fireEvent.click(screen.getByRole('button'));

describe('useForm', () => {
  it('renders a noValidate form with the busy-aware submit button and an empty alert', () => {
    render(<Sample action={vi.fn()} />);
    const form = screen.getByRole('form', { name: 'sample' }) as HTMLFormElement;
    expect(form.noValidate).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('');
    const button = screen.getByRole('button');
    expect(button.textContent).toBe('Save');
    expect(button.getAttribute('type')).toBe('submit');
    expect(button.className).toBe('btn btn-primary');
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('shows the pre-check errors, focuses the first invalid field and sends nothing', async () => {
    const action = vi.fn();
    render(<Sample action={action} />);
    submit();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(action).not.toHaveBeenCalled();

    // Only the second field wrong: it gets focus.
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ada' } });
    submit();
    await waitFor(() => expect(screen.queryByText('Name is required')).toBeNull());
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('passes the parsed values to the action and clears the errors', async () => {
    const action = vi.fn().mockResolvedValue({ ok: true });
    const onSuccess = vi.fn();
    render(<Sample action={action} options={{ onSuccess }} initial={{ name: 'Ada', email: 'ada@example.com' }} />);
    submit();
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith({ ok: true }));
    expect(action).toHaveBeenCalledWith({ name: 'Ada', email: 'ada@example.com' });
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it("maps the API's field errors onto the fields and focuses the first", async () => {
    const action = vi
      .fn()
      .mockRejectedValue(new ApiError(400, 'Validation failed', 'VALIDATION_ERROR', { fields: { email: 'Email already in use' } }));
    render(<Sample action={action} initial={{ name: 'Ada', email: 'ada@example.com' }} />);
    submit();
    expect(await screen.findByText('Email already in use')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    // A field error says it all: no form-level message beside it.
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('renames server fields with mapFieldErrors', async () => {
    const action = vi.fn().mockRejectedValue(new ApiError(400, 'Invalid', 'VALIDATION_ERROR', { fields: { 'user.name': 'Too long' } }));
    render(
      <Sample
        action={action}
        initial={{ name: 'Ada', email: 'ada@example.com' }}
        options={{ mapFieldErrors: (f) => ({ name: f['user.name'] }) }}
      />,
    );
    submit();
    expect(await screen.findByText('Too long')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
  });

  it("shows other failures as the form-level message: the server's words, else the fallback", async () => {
    const action = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(409, 'Name taken', 'CONFLICT'))
      .mockRejectedValueOnce(new Error('boom'));
    render(<Sample action={action} initial={{ name: 'Ada', email: 'ada@example.com' }} />);
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Name taken'));
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Could not save'));
  });

  it('takes a function for the form-level message, and lets onError handle a failure itself', async () => {
    const err = new ApiError(400, 'Validation failed', 'VALIDATION_ERROR', { fields: { name: 'Bad name' } });
    const action = vi.fn().mockRejectedValue(err);
    const onError = vi.fn().mockReturnValueOnce(true).mockReturnValue(false);
    render(
      <Sample
        action={action}
        initial={{ name: 'Ada', email: 'ada@example.com' }}
        options={{ onError, formError: (e, fields) => `${(e as Error).message} (${Object.keys(fields).join()})` }}
      />,
    );
    submit();
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Bad name')).toBeNull();
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Validation failed (name)'));
    expect(screen.getByText('Bad name')).toBeTruthy();
  });

  it('is busy while the action runs and ignores a second submit', async () => {
    let finish: (value: unknown) => void = () => {};
    const action = vi.fn(() => new Promise((resolve) => (finish = resolve)));
    render(<Sample action={action} initial={{ name: 'Ada', email: 'ada@example.com' }} />);
    const form = screen.getByRole('form', { name: 'sample' });
    fireEvent.submit(form);
    fireEvent.submit(form);
    const button = screen.getByRole('button');
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect(button.textContent).toBe('Saving…');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(form);
    expect(action).toHaveBeenCalledTimes(1);
    await act(async () => finish(undefined));
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBeNull());
    expect(button.textContent).toBe('Save');
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('clears a field error when that field changes, with clearOnChange', async () => {
    render(<Sample action={vi.fn()} options={{ clearOnChange: true }} />);
    submit();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'A' } });
    await waitFor(() => expect(screen.queryByText('Name is required')).toBeNull());
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
  });

  it('runs validate after the schema and can focus only on pre-check failures', async () => {
    const action = vi.fn().mockRejectedValue(new ApiError(400, 'Invalid', 'VALIDATION_ERROR', { fields: { email: 'Taken' } }));
    render(
      <Sample action={action} initial={{ name: 'Ada', email: 'ada@example.com' }} options={{ focus: 'precheck', validate: () => ({}) }} />,
    );
    screen.getByRole('button').focus();
    submit();
    expect(await screen.findByText('Taken')).toBeTruthy();
    expect(document.activeElement).not.toBe(screen.getByLabelText('Email'));
  });

  it('runs beforeSubmit first, hands focus to a focus function, and keeps the browser checks with noValidate={false}', async () => {
    const beforeSubmit = vi.fn();
    const focus = vi.fn();
    render(<Sample action={vi.fn()} options={{ beforeSubmit, focus }} />);
    submit();
    await waitFor(() => expect(focus).toHaveBeenCalledWith({ name: 'Name is required', email: 'Enter a valid email address' }));
    expect(beforeSubmit).toHaveBeenCalledTimes(1);
    expect(document.activeElement).not.toBe(screen.getByLabelText('Name'));
    cleanup();

    function Native() {
      const form = useForm({ action: () => undefined });
      return (
        <Form form={form} noValidate={false} aria-label="native">
          <input name="q" required />
        </Form>
      );
    }
    render(<Native />);
    expect((screen.getByRole('form', { name: 'native' }) as HTMLFormElement).noValidate).toBe(false);
  });

  it('is never busy for a synchronous action: its outcome renders at once', () => {
    const seen: boolean[] = [];
    function Sync() {
      const [count, setCount] = useState(0);
      const form = useForm({ action: () => setCount((c) => c + 1) });
      seen.push(form.busy);
      return (
        <Form form={form} aria-label="sync">
          <StatusButton busy={form.busy} busyLabel="Searching…">{`Search ${count}`}</StatusButton>
        </Form>
      );
    }
    render(<Sync />);
    submit();
    expect(screen.getByRole('button').textContent).toBe('Search 1');
    submit();
    expect(screen.getByRole('button').textContent).toBe('Search 2');
    expect(seen.every((busy) => !busy)).toBe(true);
  });
});
