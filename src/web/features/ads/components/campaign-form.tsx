import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { AD_MIN_BUDGET_CENTS, AD_MIN_PRICE_CENTS, AD_PLACEMENTS, type AdPriceModel, type CreateCampaignBody } from '#shared/schemas/ads';
import { CheckboxField, SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { Form, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { ErrorCode } from '#shared/error-codes';
import { newIdempotencyKey } from '#web/lib/idempotency-key';
import { translateValidationMessage } from '#web/lib/validation-messages';
import { useCreateCampaign } from '../api/create-campaign';
import { useCreateHouseCampaign } from '../api/house-campaigns';
import { useLocale } from '#web/features/language';
import { formatCredits, formatLocaleCredits } from '#web/lib/format';

export const PLACEMENT_LABELS: Record<string, MessageDescriptor> = {
  'home-banner': msg`Home page banner`,
  'patch-notes': msg`Patch notes page`,
};

/** A UUID for the campaign's request id (one per form: a double submit creates one campaign). */
function newRequestId(): string {
  const hex = newIdempotencyKey();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function localInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

const toCents = (credits: string) => Math.round(Number(credits) * 100);

/**
 * Creating and funding a campaign: its budget is reserved from the balance when it is created. With
 * `house` (staff console, admins): a house campaign, approved at once, whose budget is optional and
 * never paid (docs/decisions/0283).
 */
export function CampaignForm({ onCreated, house = false }: { onCreated?: (id: string) => void; house?: boolean }) {
  useLocale();
  const createPaid = useCreateCampaign();
  const createHouse = useCreateHouseCampaign();
  const create = house ? createHouse : createPaid;
  const [requestId, setRequestId] = useState(newRequestId);
  const [form, setForm] = useState(() => ({
    name: '',
    placements: [AD_PLACEMENTS[0]] as string[],
    startsAt: localInput(new Date()),
    endsAt: localInput(new Date(Date.now() + 7 * 86_400_000)),
    priceModel: 'cpm' as AdPriceModel,
    price: formatCredits(AD_MIN_PRICE_CENTS.cpm),
    budget: house ? '' : formatCredits(AD_MIN_BUDGET_CENTS),
    dailyBudget: '',
    frequencyCap: '',
    kind: 'text',
    title: '',
    body: '',
    imageUrl: '',
    imageAlt: '',
    targetUrl: 'https://',
  }));
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const body: CreateCampaignBody = {
      requestId,
      name: form.name,
      placements: form.placements as CreateCampaignBody['placements'],
      startsAt: new Date(form.startsAt).toISOString(),
      endsAt: new Date(form.endsAt).toISOString(),
      priceModel: form.priceModel,
      priceCents: toCents(form.price),
      budgetCents: toCents(form.budget),
      dailyBudgetCents: form.dailyBudget ? toCents(form.dailyBudget) : null,
      frequencyCap: form.frequencyCap ? Number(form.frequencyCap) : null,
      creatives: [
        {
          kind: form.kind as 'text' | 'image',
          title: form.title,
          body: form.body,
          imageUrl: form.kind === 'image' ? form.imageUrl || null : null,
          imageAlt: form.kind === 'image' ? form.imageAlt : '',
          targetUrl: form.targetUrl,
        },
      ],
    };
    const { campaign } = house
      ? await createHouse.mutateAsync({ ...body, budgetCents: form.budget.trim() ? toCents(form.budget) : null })
      : await createPaid.mutateAsync(body);
    const reserved = formatLocaleCredits(campaign.budgetCents ?? 0);
    toast.success(
      house ? t`House campaign created and approved.` : t`Campaign created: ${reserved} credits reserved. It starts once staff approve it.`,
    );
    setRequestId(newRequestId());
    setForm((f) => ({ ...f, name: '', title: '', body: '' }));
    onCreated?.(campaign._id);
  }

  // A refusal is a toast; the server's field errors (the creative's without their prefix) are said under their fields.
  const campaignForm = useForm({
    action: submit,
    onError: (err) => {
      if (err instanceof ApiError) {
        toast.error(
          err.code === ErrorCode.INSUFFICIENT_CREDITS
            ? t`Your balance does not cover this budget. Top up or lower the budget.`
            : errorMessage(err, err.message),
        );
        return false;
      }
      toast.error(t`Failed to create the campaign`);
      return true;
    },
    mapFieldErrors: (fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^creatives\.0\./, ''), v])),
    formError: () => null,
  });
  const errors = campaignForm.errors as Record<string, string | undefined>;

  const togglePlacement = (p: string, on: boolean) =>
    set('placements', on ? [...form.placements, p] : form.placements.filter((x) => x !== p));
  const minimum = formatLocaleCredits(AD_MIN_PRICE_CENTS[form.priceModel]);
  const budgetNumber = Number(form.budget);
  const reserve = formatLocaleCredits(Number.isFinite(budgetNumber) ? Math.round(budgetNumber * 100) : 0);

  return (
    <Form form={campaignForm} className="card campaign-form stack" aria-labelledby="new-campaign-title">
      <h2 id="new-campaign-title">{house ? t`New house campaign` : t`New campaign`}</h2>
      {house && (
        <p className="muted">{t`Run for the house: nothing is paid and it is approved now. It is shown only where no paid campaign is.`}</p>
      )}
      <TextField
        label={t`Campaign name`}
        value={form.name}
        maxLength={80}
        required
        error={errors.name}
        onChange={(e) => set('name', e.target.value)}
      />
      <fieldset>
        <legend>{t`Where it shows`}</legend>
        {AD_PLACEMENTS.map((p) => (
          <CheckboxField
            key={p}
            label={PLACEMENT_LABELS[p] ? i18n._(PLACEMENT_LABELS[p]) : p}
            checked={form.placements.includes(p)}
            onChange={(e) => togglePlacement(p, e.target.checked)}
          />
        ))}
        {errors.placements && <p className="field-error">{translateValidationMessage(errors.placements)}</p>}
      </fieldset>
      <div className="grid grid-2">
        <TextField
          label={t`Starts`}
          type="datetime-local"
          value={form.startsAt}
          required
          error={errors.startsAt}
          onChange={(e) => set('startsAt', e.target.value)}
        />
        <TextField
          label={t`Ends`}
          type="datetime-local"
          value={form.endsAt}
          required
          error={errors.endsAt}
          onChange={(e) => set('endsAt', e.target.value)}
        />
      </div>
      <fieldset>
        <legend>{t`Price and budget`}</legend>
        <div className="grid grid-2">
          <SelectField
            label={t`Pay for`}
            value={form.priceModel}
            options={[
              { value: 'cpm', label: t`Viewable impressions (CPM)` },
              { value: 'cpc', label: t`Clicks (CPC)` },
            ]}
            onChange={(e) => {
              const model = e.target.value as AdPriceModel;
              setForm((f) => ({ ...f, priceModel: model, price: formatCredits(AD_MIN_PRICE_CENTS[model]) }));
            }}
          />
          <TextField
            label={form.priceModel === 'cpm' ? t`Price (credits per 1,000 viewable impressions)` : t`Price (credits per click)`}
            inputMode="decimal"
            value={form.price}
            required
            error={errors.priceCents}
            note={t`At least ${minimum}`}
            onChange={(e) => set('price', e.target.value)}
          />
          <TextField
            label={house ? t`Total budget (credits, optional)` : t`Total budget (credits)`}
            inputMode="decimal"
            value={form.budget}
            required={!house}
            error={errors.budgetCents}
            note={
              house
                ? t`Counted at the price above, never paid; it ends the campaign when reached. Empty: no limit.`
                : t`Reserved from your balance now; what is not spent comes back.`
            }
            onChange={(e) => set('budget', e.target.value)}
          />
          <TextField
            label={t`Daily budget (credits, optional)`}
            inputMode="decimal"
            value={form.dailyBudget}
            error={errors.dailyBudgetCents}
            note={t`Spread evenly across the day.`}
            onChange={(e) => set('dailyBudget', e.target.value)}
          />
          <TextField
            label={t`Most times shown to one viewer a day (optional)`}
            inputMode="numeric"
            value={form.frequencyCap}
            error={errors.frequencyCap}
            onChange={(e) => set('frequencyCap', e.target.value)}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>{t`Creative`}</legend>
        <SelectField
          label={t`Kind`}
          value={form.kind}
          options={[
            { value: 'text', label: t`Text` },
            { value: 'image', label: t`Image and text` },
          ]}
          onChange={(e) => set('kind', e.target.value)}
        />
        <TextField
          label={t`Title`}
          value={form.title}
          maxLength={80}
          required
          error={errors.title}
          onChange={(e) => set('title', e.target.value)}
        />
        <TextareaField
          label={t`Text`}
          value={form.body}
          maxLength={280}
          rows={2}
          error={errors.body}
          onChange={(e) => set('body', e.target.value)}
        />
        {form.kind === 'image' && (
          <>
            <TextField
              label={t`Image address (https)`}
              type="url"
              value={form.imageUrl}
              error={errors.imageUrl}
              onChange={(e) => set('imageUrl', e.target.value)}
            />
            <TextField
              label={t`Image description`}
              value={form.imageAlt}
              maxLength={200}
              error={errors.imageAlt}
              onChange={(e) => set('imageAlt', e.target.value)}
            />
          </>
        )}
        <TextField
          label={t`Link (http or https)`}
          type="url"
          value={form.targetUrl}
          required
          error={errors.targetUrl}
          onChange={(e) => set('targetUrl', e.target.value)}
        />
      </fieldset>
      <div className="cluster">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? t`Creating…` : house ? t`Create house campaign` : t`Create and reserve ${reserve} credits`}
        </button>
      </div>
    </Form>
  );
}
