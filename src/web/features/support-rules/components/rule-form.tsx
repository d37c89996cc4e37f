import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import {
  RULE_ACTION_LABELS,
  RULE_CONDITION_LABELS,
  RULE_NAME_MAX,
  RULE_TRIGGERS,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  ruleBodySchema,
  type Rule,
  type RuleAction,
  type RuleBody,
  type RuleCondition,
  type RuleTrigger,
} from '#shared/schemas/support-rules';
import { CheckboxField, SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { ACTION_LABELS, CONDITION_LABELS, TRIGGER_LABELS } from './rule-labels';

/** What the form edits: loose while typed (hours as text), checked by the shared schema on save. */
interface Draft {
  name: string;
  enabled: boolean;
  trigger: RuleTrigger;
  hours: string;
  toStatus: string;
  conditions: RuleCondition[];
  actions: RuleAction[];
}

export interface RuleFormProps {
  rule: Rule | null;
  staff: ReadonlyArray<{ _id: string; username: string }>;
  cannedReplies: ReadonlyArray<{ _id: string; title: string }>;
  /** Saves; a rejection with field errors (path → message) shows them. */
  onSave: (body: RuleBody) => Promise<void>;
  onCancel: () => void;
  saving?: boolean;
}

function draftOf(rule: Rule | null): Draft {
  return {
    name: rule?.name ?? '',
    enabled: rule?.enabled ?? true,
    trigger: rule?.trigger.type ?? 'ticket_created',
    hours: rule?.trigger.type === 'no_staff_reply' ? String(rule.trigger.hours) : '8',
    toStatus: rule?.trigger.type === 'status_changed' ? (rule.trigger.to ?? '') : '',
    conditions: rule?.conditions ?? [],
    actions: rule?.actions ?? [],
  };
}

function newCondition(type: RuleCondition['type']): RuleCondition {
  switch (type) {
    case 'subject_contains':
      return { type, text: '' };
    case 'priority_in':
      return { type, priorities: [] };
    case 'requester_kind':
      return { type, kind: 'guest' };
    case 'has_tag':
    case 'lacks_tag':
      return { type, tag: '' };
  }
}

function newAction(type: RuleAction['type'], staff: RuleFormProps['staff'], canned: RuleFormProps['cannedReplies']): RuleAction {
  switch (type) {
    case 'assign':
      return { type, assigneeId: staff[0]?._id ?? '' };
    case 'set_priority':
      return { type, priority: 'high' };
    case 'add_tag':
      return { type, tag: '' };
    case 'canned_reply':
      return { type, cannedReplyId: canned[0]?._id ?? '' };
    case 'internal_note':
      return { type, body: '' };
    case 'close':
      return { type };
    case 'set_status':
      return { type, status: 'pending' };
  }
}

/** The body the API takes, from the draft. */
export function bodyOf(d: Draft): RuleBody {
  const trigger =
    d.trigger === 'no_staff_reply'
      ? { type: d.trigger, hours: Number(d.hours) }
      : d.trigger === 'status_changed'
        ? { type: d.trigger, ...(d.toStatus ? { to: d.toStatus as (typeof TICKET_STATUSES)[number] } : {}) }
        : { type: d.trigger };
  return { name: d.name, enabled: d.enabled, trigger: trigger as RuleBody['trigger'], conditions: d.conditions, actions: d.actions };
}

const conditionTypes = Object.keys(RULE_CONDITION_LABELS) as Array<RuleCondition['type']>;
const actionTypes = Object.keys(RULE_ACTION_LABELS) as Array<RuleAction['type']>;

/** The form's heading when it changes a rule: Edit rule "Urgent to ana". */
function editTitle(name: string): string {
  return t`Edit rule "${name}"`;
}

/**
 * Create or change an automation rule: name, trigger, conditions (all must hold), actions (in order).
 * Checked with the server's own schema before it is sent; the server's field errors show the same way.
 */
export function RuleForm({ rule, staff, cannedReplies, onSave, onCancel, saving = false }: RuleFormProps) {
  useLocale();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(rule));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setCondition = (i: number, c: RuleCondition) => set({ conditions: draft.conditions.map((x, j) => (j === i ? c : x)) });
  const setAction = (i: number, a: RuleAction) => set({ actions: draft.actions.map((x, j) => (j === i ? a : x)) });

  // Checked with the server's own schema, its errors keyed by their whole path ("conditions.0.text"),
  // as the server's are; a problem of the whole rule, or a refusal without field errors, shows at the end.
  const form = useForm({
    focus: false,
    validate: () => {
      const parsed = ruleBodySchema.safeParse(bodyOf(draft));
      const found: Record<string, string> = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) found[issue.path.length ? issue.path.join('.') : 'form'] ??= issue.message;
      }
      return found;
    },
    action: () => onSave(bodyOf(draft)),
    // onSave's rejection may carry field errors without being an ApiError.
    mapFieldErrors: () => ({}),
    onError: (err) => {
      const fields = (err as { fieldErrors?: Record<string, string> }).fieldErrors;
      if (!fields || Object.keys(fields).length === 0) return false;
      form.setErrors(fields);
      return true;
    },
    formError: (err) => errorMessage(err, t`Failed to save`),
  });

  const err = (key: string) => form.errors[key];
  const formError = form.errors.form ?? form.formError;

  return (
    <Form form={form} className="rule-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{rule ? editTitle(rule.name) : t`New rule`}</h3>
      <TextField
        label={t`Name`}
        value={draft.name}
        maxLength={RULE_NAME_MAX}
        onChange={(e) => set({ name: e.target.value })}
        error={err('name')}
      />
      <fieldset>
        <legend>{t`When`}</legend>
        <SelectField
          label={t`Trigger`}
          value={draft.trigger}
          onChange={(e) => set({ trigger: e.target.value as RuleTrigger })}
          options={RULE_TRIGGERS.map((trigger) => ({ value: trigger, label: i18n._(TRIGGER_LABELS[trigger]) }))}
        />
        {draft.trigger === 'no_staff_reply' && (
          <TextField
            label={t`Business hours without a staff reply`}
            inputMode="numeric"
            value={draft.hours}
            onChange={(e) => set({ hours: e.target.value })}
            error={err('trigger.hours')}
          />
        )}
        {draft.trigger === 'status_changed' && (
          <SelectField
            label={t`To status`}
            value={draft.toStatus}
            onChange={(e) => set({ toStatus: e.target.value })}
            options={[{ value: '', label: t`Any status` }, ...TICKET_STATUSES.map((s) => ({ value: s, label: s }))]}
          />
        )}
      </fieldset>

      <fieldset>
        <legend>{t`If all of these hold`}</legend>
        {draft.conditions.length === 0 && <p className="muted">{t`No conditions: every ticket of the trigger.`}</p>}
        <ol className="rule-parts" aria-label={t`Conditions`}>
          {draft.conditions.map((c, i) => (
            <li key={i} className="rule-part">
              <SelectField
                label={t`Condition ${i + 1}`}
                value={c.type}
                onChange={(e) => setCondition(i, newCondition(e.target.value as RuleCondition['type']))}
                options={conditionTypes.map((type) => ({ value: type, label: i18n._(CONDITION_LABELS[type]) }))}
              />
              {c.type === 'subject_contains' && (
                <TextField
                  label={t`Text`}
                  value={c.text}
                  onChange={(e) => setCondition(i, { ...c, text: e.target.value })}
                  error={err(`conditions.${i}.text`)}
                />
              )}
              {(c.type === 'has_tag' || c.type === 'lacks_tag') && (
                <TextField
                  label={t`Tag`}
                  value={c.tag}
                  onChange={(e) => setCondition(i, { ...c, tag: e.target.value })}
                  error={err(`conditions.${i}.tag`)}
                />
              )}
              {c.type === 'requester_kind' && (
                <SelectField
                  label={t`Requester`}
                  value={c.kind}
                  onChange={(e) => setCondition(i, { ...c, kind: e.target.value as 'user' | 'guest' })}
                  options={[
                    { value: 'user', label: t`a user` },
                    { value: 'guest', label: t`a guest` },
                  ]}
                />
              )}
              {c.type === 'priority_in' && (
                <fieldset className="rule-priorities">
                  <legend>{t`Priorities`}</legend>
                  {TICKET_PRIORITIES.map((p) => (
                    <CheckboxField
                      key={p}
                      label={p}
                      checked={c.priorities.includes(p)}
                      onChange={(e) =>
                        setCondition(i, { ...c, priorities: e.target.checked ? [...c.priorities, p] : c.priorities.filter((x) => x !== p) })
                      }
                    />
                  ))}
                  {err(`conditions.${i}.priorities`) && <p className="field-error">{err(`conditions.${i}.priorities`)}</p>}
                </fieldset>
              )}
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={t`Remove condition ${i + 1}`}
                onClick={() => set({ conditions: draft.conditions.filter((_, j) => j !== i) })}
              >
                {t`Remove`}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ conditions: [...draft.conditions, newCondition('subject_contains')] })}
        >
          {t`Add condition`}
        </button>
      </fieldset>

      <fieldset>
        <legend>{t`Then, in order`}</legend>
        <ol className="rule-parts" aria-label={t`Actions`}>
          {draft.actions.map((a, i) => (
            <li key={i} className="rule-part">
              <SelectField
                label={t`Action ${i + 1}`}
                value={a.type}
                onChange={(e) => setAction(i, newAction(e.target.value as RuleAction['type'], staff, cannedReplies))}
                options={actionTypes.map((type) => ({ value: type, label: i18n._(ACTION_LABELS[type]) }))}
              />
              {a.type === 'assign' && (
                <SelectField
                  label={t`Staff member`}
                  value={a.assigneeId}
                  onChange={(e) => setAction(i, { ...a, assigneeId: e.target.value })}
                  options={staff.map((s) => ({ value: s._id, label: s.username }))}
                  error={err(`actions.${i}.assigneeId`)}
                />
              )}
              {a.type === 'set_priority' && (
                <SelectField
                  label={t`Priority`}
                  value={a.priority}
                  onChange={(e) => setAction(i, { ...a, priority: e.target.value as typeof a.priority })}
                  options={[...TICKET_PRIORITIES]}
                />
              )}
              {a.type === 'set_status' && (
                <SelectField
                  label={t`Status`}
                  value={a.status}
                  onChange={(e) => setAction(i, { ...a, status: e.target.value as typeof a.status })}
                  options={[...TICKET_STATUSES]}
                />
              )}
              {a.type === 'add_tag' && (
                <TextField
                  label={t`Tag`}
                  value={a.tag}
                  onChange={(e) => setAction(i, { ...a, tag: e.target.value })}
                  error={err(`actions.${i}.tag`)}
                />
              )}
              {a.type === 'canned_reply' && (
                <SelectField
                  label={t`Canned reply`}
                  value={a.cannedReplyId}
                  onChange={(e) => setAction(i, { ...a, cannedReplyId: e.target.value })}
                  options={
                    cannedReplies.length
                      ? cannedReplies.map((r) => ({ value: r._id, label: r.title }))
                      : [{ value: '', label: t`No canned replies yet` }]
                  }
                  error={err(`actions.${i}.cannedReplyId`)}
                />
              )}
              {a.type === 'internal_note' && (
                <TextareaField
                  label={t`Note`}
                  rows={2}
                  value={a.body}
                  onChange={(e) => setAction(i, { ...a, body: e.target.value })}
                  error={err(`actions.${i}.body`)}
                />
              )}
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={t`Remove action ${i + 1}`}
                onClick={() => set({ actions: draft.actions.filter((_, j) => j !== i) })}
              >
                {t`Remove`}
              </button>
            </li>
          ))}
        </ol>
        {err('actions') && (
          <p className="field-error" role="alert">
            {err('actions')}
          </p>
        )}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => set({ actions: [...draft.actions, newAction('add_tag', staff, cannedReplies)] })}
        >
          {t`Add action`}
        </button>
      </fieldset>

      <CheckboxField label={t`Enabled`} checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
      {formError && (
        <p className="field-error" role="alert">
          {formError}
        </p>
      )}
      <div className="rule-form-buttons">
        <StatusButton busy={saving} className="btn btn-primary btn-small">
          {rule ? t`Save rule` : t`Create rule`}
        </StatusButton>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          {t`Cancel`}
        </button>
      </div>
    </Form>
  );
}
