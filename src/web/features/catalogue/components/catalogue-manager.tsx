import { t } from '@lingui/core/macro';
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
import { useLocale } from '#web/features/language';
import { creditsLabel } from '../lib/format';

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
  if (!form.name.trim()) errors.name = t`Enter a name`;
  if (form.price.trim() === '' || !Number.isFinite(price) || price <= 0) errors.priceCents = t`Enter a price in credits, e.g. 4.99`;
  else if (Math.abs(price * 100 - Math.round(price * 100)) > 1e-6) errors.priceCents = t`Use at most two decimals`;
  const stock = form.stock.trim() === '' ? null : Number(form.stock);
  if (stock !== null && (!Number.isInteger(stock) || stock < 0)) errors.stock = t`Stock is a whole number from 0, or empty for unlimited`;
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { name: form.name.trim(), description: form.description.trim(), priceCents: toCents(price), stock, active: form.active } };
}

/** Staff: the catalogue, hidden items too. Admins add, change, hide and show items; support reads. */
export function CatalogueManager({ isAdmin }: { isAdmin: boolean }) {
  const ids = useId();
  useLocale();
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
      const name = item.name;
      toast.success(editing ? t`Saved ${name}` : t`Added ${name}`);
      reset();
    },
    // A refusal with field errors is said on the fields, any other above the form.
    formError: (err, fields) => (err instanceof ApiError ? (Object.keys(fields).length ? null : err.message) : t`Could not save the item`),
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
      const name = item.name;
      toast.success(item.active ? t`${name} is hidden` : t`${name} is listed`);
    } catch (err) {
      toast.error(errorMessage(err, t`Could not change the item`));
    }
  }

  const editingName = editing?.name ?? '';
  return (
    <section className="admin-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Catalogue`}</h2>
      <p className="muted">
        {t`What users can buy with credits. Hidden items are neither listed nor sold; orders keep the name and price they were bought at.`}
      </p>
      <QueryState
        data={catalogue.data?.items}
        loading={t`Loading the catalogue…`}
        error={catalogue.isError ? errorMessage(catalogue.error, t`Could not load the catalogue`) : null}
        isEmpty={(items) => items.length === 0}
        empty={t`No items yet.`}
      >
        {(items) => (
          <div className="table-wrap">
            <table className="admin-table" aria-label={t`Catalogue items`}>
              <thead>
                <tr>
                  <th scope="col">{t`Name`}</th>
                  <th scope="col">{t`Price`}</th>
                  <th scope="col">{t`Stock`}</th>
                  <th scope="col">{t`Status`}</th>
                  {isAdmin && (
                    <th scope="col">
                      <span className="visually-hidden">{t`Actions`}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item._id} data-testid="staff-catalogue-row">
                    <td>{item.name}</td>
                    <td>{creditsLabel(item.priceCents)}</td>
                    <td>{item.stock === null ? t`Unlimited` : item.stock}</td>
                    <td>{item.active ? t`Listed` : t`Hidden`}</td>
                    {isAdmin && (
                      <td className="catalogue-row-actions">
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => startEdit(item)}>
                          {t`Edit`} <span className="visually-hidden">{item.name}</span>
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-small"
                          disabled={save.isPending}
                          onClick={() => void toggle(item)}
                        >
                          {item.active ? t`Hide` : t`List`} <span className="visually-hidden">{item.name}</span>
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
          <h3 id={`${ids}-form-title`}>{editing ? t`Edit ${editingName}` : t`Add an item`}</h3>
          {itemForm.formError && (
            <p className="field-error" role="alert">
              {itemForm.formError}
            </p>
          )}
          <TextField
            id={`${ids}-name`}
            label={t`Name`}
            value={form.name}
            maxLength={120}
            onChange={(e) => set({ name: e.target.value })}
            error={errors.name}
          />
          <TextareaField
            label={t`Description`}
            rows={3}
            maxLength={2000}
            value={form.description}
            onChange={(e) => set({ description: e.target.value })}
            error={errors.description}
          />
          <div className="catalogue-form-row">
            <TextField
              label={t`Price (credits)`}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              value={form.price}
              onChange={(e) => set({ price: e.target.value })}
              error={errors.priceCents}
              note={t`1 credit = 1 USD`}
            />
            <TextField
              label={t`Stock`}
              type="number"
              inputMode="numeric"
              min="0"
              step="1"
              value={form.stock}
              onChange={(e) => set({ stock: e.target.value })}
              error={errors.stock}
              note={t`Leave empty for unlimited`}
            />
          </div>
          <div className="catalogue-checkbox-row">
            <input id={`${ids}-active`} type="checkbox" checked={form.active} onChange={(e) => set({ active: e.target.checked })} />
            <label htmlFor={`${ids}-active`}>{t`Listed (users see and can buy it)`}</label>
          </div>
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              {save.isPending ? t`Saving…` : editing ? t`Save changes` : t`Add item`}
            </button>
            {editing && (
              <button type="button" className="btn btn-ghost" onClick={reset}>
                {t`Cancel`}
              </button>
            )}
          </div>
        </Form>
      )}
    </section>
  );
}
