import { t } from '@lingui/core/macro';
import { useId, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { AD_KINDS, AD_PLACEMENTS, AD_WEIGHT_MAX, type CreateAdBody, type StaffAd } from '#shared/schemas/ads';
import { useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime, pageLocale } from '#web/lib/format';
import { translateValidationMessage } from '#web/lib/validation-messages';
import { QueryTable } from '#web/components/ui/query-table';
import { Form, useForm } from '#web/components/ui/use-form';
import { useStaffAds } from '../api/get-staff-ads';
import { useSaveAd } from '../api/save-ad';
import '../ads.css';
import { placementCode } from './labels';

const STATS_DAYS = 30;

interface FormState {
  placement: string;
  kind: string;
  title: string;
  body: string;
  imageUrl: string;
  imageAlt: string;
  targetUrl: string;
  startsAt: string;
  endsAt: string;
  weight: string;
  active: boolean;
}

const EMPTY_FORM: FormState = {
  placement: AD_PLACEMENTS[0],
  kind: 'text',
  title: '',
  body: '',
  imageUrl: '',
  imageAlt: '',
  targetUrl: 'https://',
  startsAt: '',
  endsAt: '',
  weight: '1',
  active: true,
};

/** ISO instant → the local value a datetime-local input shows. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | null {
  return value ? new Date(value).toISOString() : null;
}

function formFor(ad: StaffAd): FormState {
  return {
    placement: ad.placement,
    kind: ad.kind,
    title: ad.title,
    body: ad.body,
    imageUrl: ad.imageUrl ?? '',
    imageAlt: ad.imageAlt,
    targetUrl: ad.targetUrl,
    startsAt: toLocalInput(ad.startsAt),
    endsAt: toLocalInput(ad.endsAt),
    weight: String(ad.weight),
    active: ad.active,
  };
}

function bodyFor(form: FormState): CreateAdBody {
  return {
    placement: form.placement as CreateAdBody['placement'],
    kind: form.kind as CreateAdBody['kind'],
    title: form.title,
    body: form.body,
    imageUrl: form.kind === 'image' ? form.imageUrl || null : null,
    imageAlt: form.kind === 'image' ? form.imageAlt : '',
    targetUrl: form.targetUrl,
    startsAt: fromLocalInput(form.startsAt),
    endsAt: fromLocalInput(form.endsAt),
    weight: Number(form.weight),
    active: form.active,
  };
}

/** A rate as a percentage with one decimal, as the language writes it ("12.5%", "12,5 %"). */
const percent = (rate: number) =>
  new Intl.NumberFormat(pageLocale(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rate);

/**
 * Staff tool for ads (support and admin): create, edit, pause and resume ads, and read impressions,
 * unique viewers, clicks and click-through per ad and day. Mounted by the operator console.
 */
export function AdsManager() {
  useLocale();
  const adsQuery = useStaffAds(STATS_DAYS);
  // One call answers both tables: its failure is announced once, above the ads.
  const statsQuery = { data: adsQuery.data, error: null, refetch: adsQuery.refetch };
  const saveAd = useSaveAd();
  const saving = saveAd.isPending;
  const [editing, setEditing] = useState<StaffAd | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY_FORM);
  const id = useId();

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  // A refusal is a toast; the server's field errors are also said under their fields.
  const adForm = useForm({
    action: async () => {
      await saveAd.mutateAsync({ id: editing?._id, body: bodyFor(form) });
      toast.success(editing ? t`Ad saved` : t`Ad created`);
      startEdit(null);
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        toast.error(errorMessage(err, err.message));
        return false;
      }
      toast.error(t`Failed to save the ad`);
      return true;
    },
    formError: () => null,
  });
  const fieldErrors = adForm.errors as Record<string, string | undefined>;

  function startEdit(ad: StaffAd | null) {
    setEditing(ad);
    setForm(ad ? formFor(ad) : EMPTY_FORM);
    adForm.reset();
  }

  async function toggleActive(ad: StaffAd) {
    try {
      await saveAd.mutateAsync({ id: ad._id, body: { active: !ad.active } });
      toast.success(ad.active ? t`Ad paused` : t`Ad resumed`);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to update the ad`));
    }
  }

  const field = (name: keyof FormState, label: string, input: ReactNode, wide = false) => (
    <div className={wide ? 'field ads-field-wide' : 'field'}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
      {fieldErrors[name] && (
        <p className="field-note" id={`${id}-${name}-error`} role="alert">
          {translateValidationMessage(fieldErrors[name])}
        </p>
      )}
    </div>
  );
  const describedBy = (name: string) => (fieldErrors[name] ? `${id}-${name}-error` : undefined);
  const editingTitle = editing?.title ?? '';
  const titleOf = new Map((adsQuery.data?.ads ?? []).map((ad) => [ad._id, ad.title]));

  return (
    <section className="ads-manager" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t`Ads`}</h2>

      <Form form={adForm} aria-labelledby={`${id}-form-heading`}>
        <h3 id={`${id}-form-heading`} className="ads-field-wide">
          {editing ? t`Edit “${editingTitle}”` : t`New ad`}
        </h3>
        {field(
          'placement',
          t`Placement`,
          <select id={`${id}-placement`} value={form.placement} onChange={(e) => set('placement', e.target.value)}>
            {AD_PLACEMENTS.map((p) => (
              <option key={p} value={p}>
                {placementCode(p)}
              </option>
            ))}
          </select>,
        )}
        {field(
          'kind',
          t`Creative`,
          <select id={`${id}-kind`} value={form.kind} onChange={(e) => set('kind', e.target.value)}>
            {AD_KINDS.map((k) => (
              <option key={k} value={k}>
                {k === 'text' ? t`Text` : t`Image and text`}
              </option>
            ))}
          </select>,
        )}
        {field(
          'title',
          t`Title`,
          <input
            id={`${id}-title`}
            value={form.title}
            maxLength={80}
            required
            aria-describedby={describedBy('title')}
            onChange={(e) => set('title', e.target.value)}
          />,
        )}
        {field(
          'targetUrl',
          t`Target address (http or https)`,
          <input
            id={`${id}-targetUrl`}
            type="url"
            value={form.targetUrl}
            required
            aria-describedby={describedBy('targetUrl')}
            onChange={(e) => set('targetUrl', e.target.value)}
          />,
        )}
        {field(
          'body',
          t`Text`,
          <textarea
            id={`${id}-body`}
            value={form.body}
            maxLength={280}
            rows={2}
            aria-describedby={describedBy('body')}
            onChange={(e) => set('body', e.target.value)}
          />,
          true,
        )}
        {form.kind === 'image' && (
          <>
            {field(
              'imageUrl',
              t`Image address (https)`,
              <input
                id={`${id}-imageUrl`}
                type="url"
                value={form.imageUrl}
                aria-describedby={describedBy('imageUrl')}
                onChange={(e) => set('imageUrl', e.target.value)}
              />,
            )}
            {field(
              'imageAlt',
              t`Image description`,
              <input
                id={`${id}-imageAlt`}
                value={form.imageAlt}
                maxLength={200}
                aria-describedby={describedBy('imageAlt')}
                onChange={(e) => set('imageAlt', e.target.value)}
              />,
            )}
          </>
        )}
        {field(
          'startsAt',
          t`Starts (optional)`,
          <input id={`${id}-startsAt`} type="datetime-local" value={form.startsAt} onChange={(e) => set('startsAt', e.target.value)} />,
        )}
        {field(
          'endsAt',
          t`Ends (optional)`,
          <input
            id={`${id}-endsAt`}
            type="datetime-local"
            value={form.endsAt}
            aria-describedby={describedBy('endsAt')}
            onChange={(e) => set('endsAt', e.target.value)}
          />,
        )}
        {field(
          'weight',
          t`Weight (1 to ${AD_WEIGHT_MAX})`,
          <input
            id={`${id}-weight`}
            type="number"
            min={1}
            max={AD_WEIGHT_MAX}
            step={1}
            value={form.weight}
            aria-describedby={describedBy('weight')}
            onChange={(e) => set('weight', e.target.value)}
          />,
        )}
        <div className="field">
          <label>
            <input type="checkbox" checked={form.active} onChange={(e) => set('active', e.target.checked)} /> {t`Active`}
          </label>
        </div>
        <div className="ads-form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create ad`}
          </button>
          {editing && (
            <button type="button" className="btn btn-ghost" onClick={() => startEdit(null)}>
              {t`Cancel`}
            </button>
          )}
        </div>
      </Form>

      <h3>{t`All ads`}</h3>
      <QueryTable
        query={adsQuery}
        label={t`All ads`}
        rows={(data) => data.ads}
        loading={t`Loading ads…`}
        failed={t`Failed to load ads`}
        empty={t`No ads yet. Create the first one above.`}
        className="ads-table"
        wrapClassName="ads-table-wrap"
        scrollable
        columns={
          <>
            <th scope="col">{t`Title`}</th>
            <th scope="col">{t`Placement`}</th>
            <th scope="col">{t`Schedule`}</th>
            <th scope="col" className="num">
              {t`Weight`}
            </th>
            <th scope="col">{t`State`}</th>
            <th scope="col">{t`Actions`}</th>
          </>
        }
        row={(ad) => (
          <tr key={ad._id}>
            <th scope="row">{ad.title}</th>
            <td>{placementCode(ad.placement)}</td>
            <td>
              {ad.startsAt ? formatLocaleDateTime(ad.startsAt) : t`Now`} – {ad.endsAt ? formatLocaleDateTime(ad.endsAt) : t`no end`}
            </td>
            <td className="num">{ad.weight}</td>
            <td>
              <span className="ad-live" data-live={ad.live}>
                {ad.live ? t`Live` : ad.active ? t`Scheduled or ended` : t`Paused`}
              </span>
            </td>
            <td>
              <div className="actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={() => startEdit(ad)}
                  aria-label={t`Edit ${ad.title}`}
                >
                  {t`Edit`}
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => void toggleActive(ad)}
                  aria-label={ad.active ? t`Pause ${ad.title}` : t`Resume ${ad.title}`}
                >
                  {ad.active ? t`Pause` : t`Resume`}
                </button>
              </div>
            </td>
          </tr>
        )}
      />

      <h3>{t`Last ${STATS_DAYS} days, per ad and day (UTC)`}</h3>
      <QueryTable
        query={statsQuery}
        label={t`Last ${STATS_DAYS} days, per ad and day (UTC)`}
        rows={(data) => data.stats}
        loading={t`Loading the figures…`}
        failed={t`Failed to load ads`}
        empty={t`No impressions or clicks in this period.`}
        className="ads-table"
        wrapClassName="ads-table-wrap"
        scrollable
        columns={
          <>
            <th scope="col">{t`Day`}</th>
            <th scope="col">{t`Ad`}</th>
            <th scope="col" className="num">
              {t`Impressions`}
            </th>
            <th scope="col" className="num">
              {t`Unique viewers`}
            </th>
            <th scope="col" className="num">
              {t`Clicks`}
            </th>
            <th scope="col" className="num">
              {t`Click-through`}
            </th>
          </>
        }
        row={(row) => (
          <tr key={`${row.adId}-${row.day}`}>
            <td>{row.day}</td>
            <th scope="row">{titleOf.get(row.adId) ?? row.adId}</th>
            <td className="num">{row.impressions}</td>
            <td className="num">{row.uniqueViewers}</td>
            <td className="num">{row.clicks}</td>
            <td className="num">{percent(row.clickThroughRate)}</td>
          </tr>
        )}
      />
    </section>
  );
}
