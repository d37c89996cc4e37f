import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { formatCredits, toCents } from '#shared/fees';
import type { CatalogueItem, CreateCatalogueItemBody } from '#shared/schemas/catalogue';
import { TextareaField, TextField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { Form, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useStaffCatalogue } from '../api/get-staff-catalogue';
import { useSaveCatalogueItem } from '../api/save-catalogue-item';
import { creditsText } from '#web/lib/format';

interface FormState {
  name: string;
  description: string;
  price: string;
  stock: string;
  active: boolean;
}

const EMPTY: FormState = { name: '', description: '', price: '', stock: '', active: true };

function formFor(item: CatalogueItem): FormState {
  return {
    name: item.name,
    description: item.description,
    price: formatCredits(item.priceCents),
    stock: item.stock === null ? '' : String(item.stock),
    active: item.active,
  };
}

/** The form's values as the API wants them, or the field problems the browser can already see. */
function toBody(form: FormState): { body: CreateCatalogueItemBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const price = Number(form.price);
  if (!form.name.trim()) errors.name = 'Enter a name';
  if (form.price.trim() === '' || !Number.isFinite(price) || price <= 0) errors.priceCents = 'Enter a price in credits, e.g. 4.99';
  else if (Math.abs(price * 100 - Math.round(price * 100)) > 1e-6) errors.priceCents = 'Use at most two decimals';
  const stock = form.stock.trim() === '' ? null : Number(form.stock);
  if (stock !== null && (!Number.isInteger(stock) || stock < 0)) errors.stock = 'Stock is a whole number from 0, or empty for unlimited';
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { name: form.name.trim(), description: form.description.trim(), priceCents: toCents(price), stock, active: form.active } };
}

/** Staff: the catalogue, hidden items too. Admins add, change, hide and show items; support reads. */
export function CatalogueManager({ isAdmin }: { isAdmin: boolean }) {
  const ids = useId();
  const catalogue = useStaffCatalogue();
  const save = useSaveCatalogueItem();
  const [editing, setEditing] = useState<CatalogueItem | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY);

  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));

  const itemForm = useForm({
    validate: () => {
      const parsed = toBody(form);
      return 'errors' in parsed ? parsed.errors : {};
    },
    action: async () => {
      const parsed = toBody(form);
      if ('errors' in parsed) return;
      const { item } = await save.mutateAsync(editing ? { id: editing._id, body: parsed.body } : { id: null, body: parsed.body });
      toast.success(editing ? `Saved ${item.name}` : `Added ${item.name}`);
      reset();
    },
    // A refusal with field errors is said on the fields, any other above the form.
    formError: (err, fields) => (err instanceof ApiError ? (Object.keys(fields).length ? null : err.message) : 'Could not save the item'),
  });
  const errors = itemForm.errors as Record<string, string | undefined>;

  function startEdit(item: CatalogueItem) {
    setEditing(item);
    setForm(formFor(item));
    itemForm.reset();
    document.getElementById(`${ids}-name`)?.focus();
  }

  function reset() {
    setEditing(null);
    setForm(EMPTY);
    itemForm.reset();
  }

  async function toggle(item: CatalogueItem) {
    try {
      await save.mutateAsync({ id: item._id, body: { active: !item.active } });
      toast.success(item.active ? `${item.name} is hidden` : `${item.name} is listed`);
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change the item'));
    }
  }

  return (
    <section className="admin-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Catalogue</h2>
      <p className="muted">
        What users can buy with credits. Hidden items are neither listed nor sold; orders keep the name and price they were bought at.
      </p>
      <QueryState
        data={catalogue.data?.items}
        loading="Loading the catalogue…"
        error={catalogue.isError ? errorMessage(catalogue.error, 'Could not load the catalogue') : null}
        isEmpty={(items) => items.length === 0}
        empty="No items yet."
      >
        {(items) => (
          <div className="table-wrap">
            <table className="admin-table" aria-label="Catalogue items">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Price</th>
                  <th scope="col">Stock</th>
                  <th scope="col">Status</th>
                  {isAdmin && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item._id} data-testid="staff-catalogue-row">
                    <td>{item.name}</td>
                    <td>{creditsText(item.priceCents)}</td>
                    <td>{item.stock === null ? 'Unlimited' : item.stock}</td>
                    <td>{item.active ? 'Listed' : 'Hidden'}</td>
                    {isAdmin && (
                      <td className="catalogue-row-actions">
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => startEdit(item)}>
                          Edit <span className="visually-hidden">{item.name}</span>
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-small"
                          disabled={save.isPending}
                          onClick={() => void toggle(item)}
                        >
                          {item.active ? 'Hide' : 'List'} <span className="visually-hidden">{item.name}</span>
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>

      {isAdmin && (
        <Form form={itemForm} className="card catalogue-form" aria-labelledby={`${ids}-form-title`}>
          <h3 id={`${ids}-form-title`}>{editing ? `Edit ${editing.name}` : 'Add an item'}</h3>
          {itemForm.formError && (
            <p className="field-error" role="alert">
              {itemForm.formError}
            </p>
          )}
          <TextField
            id={`${ids}-name`}
            label="Name"
            value={form.name}
            maxLength={120}
            onChange={(e) => set({ name: e.target.value })}
            error={errors.name}
          />
          <TextareaField
            label="Description"
            rows={3}
            maxLength={2000}
            value={form.description}
            onChange={(e) => set({ description: e.target.value })}
            error={errors.description}
          />
          <div className="catalogue-form-row">
            <TextField
              label="Price (credits)"
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={form.price}
              onChange={(e) => set({ price: e.target.value })}
              error={errors.priceCents}
              note="1 credit = 1 USD"
            />
            <TextField
              label="Stock"
              type="number"
              inputMode="numeric"
              min="0"
              step="1"
              value={form.stock}
              onChange={(e) => set({ stock: e.target.value })}
              error={errors.stock}
              note="Leave empty for unlimited"
            />
          </div>
          <div className="catalogue-checkbox-row">
            <input id={`${ids}-active`} type="checkbox" checked={form.active} onChange={(e) => set({ active: e.target.checked })} />
            <label htmlFor={`${ids}-active`}>Listed (users see and can buy it)</label>
          </div>
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : editing ? 'Save changes' : 'Add item'}
            </button>
            {editing && (
              <button type="button" className="btn btn-ghost" onClick={reset}>
                Cancel
              </button>
            )}
          </div>
        </Form>
      )}
    </section>
  );
}
