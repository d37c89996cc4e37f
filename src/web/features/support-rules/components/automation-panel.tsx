import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  AUTO_CLOSE_DAYS_MAX,
  autoCloseSettingsSchema,
  type Rule,
  type RuleAction,
  type RuleCondition,
} from '#shared/schemas/support-rules';
import { QueryState } from '#web/components/ui/query-state';
import { QueryTable } from '#web/components/ui/query-table';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { useCannedReplies, useStaffMembers } from '#web/features/tickets';
import { useAutoClose, useChangeRule, useRuleRuns, useRules, useSaveAutoClose } from '../api/support-rules-api';
import { RuleForm } from './rule-form';
import { ACTION_LABELS, CONDITION_LABELS, TRIGGER_LABELS } from './rule-labels';
import './support-rules.css';

function triggerText(rule: Rule): string {
  const trigger = rule.trigger;
  if (trigger.type === 'no_staff_reply')
    return plural(trigger.hours, { one: 'No staff reply for # business hour', other: 'No staff reply for # business hours' });
  if (trigger.type === 'status_changed') {
    const to = trigger.to;
    return to ? t`Status changed to ${to}` : t`Status changed`;
  }
  return i18n._(TRIGGER_LABELS[trigger.type]);
}

function conditionText(c: RuleCondition): string {
  switch (c.type) {
    case 'subject_contains': {
      const text = c.text;
      return t`subject contains "${text}"`;
    }
    case 'priority_in': {
      const priorities = c.priorities.join(` ${t`or`} `);
      return t`priority ${priorities}`;
    }
    case 'requester_kind':
      return c.kind === 'guest' ? t`requester is a guest` : t`requester is a user`;
    case 'has_tag': {
      const tag = c.tag;
      return t`has tag ${tag}`;
    }
    case 'lacks_tag': {
      const tag = c.tag;
      return t`lacks tag ${tag}`;
    }
  }
}

function actionText(a: RuleAction, names: Map<string, string>): string {
  switch (a.type) {
    case 'assign': {
      const assignee = names.get(a.assigneeId) ?? t`a staff member`;
      return t`assign to ${assignee}`;
    }
    case 'set_priority': {
      const priority = a.priority;
      return t`priority ${priority}`;
    }
    case 'add_tag': {
      const tag = a.tag;
      return t`tag ${tag}`;
    }
    case 'canned_reply': {
      const reply = names.get(a.cannedReplyId) ?? '?';
      return t`canned reply "${reply}"`;
    }
    case 'internal_note':
      return t`internal note`;
    case 'close':
      return t`close`;
    case 'set_status': {
      const status = a.status;
      return t`status ${status}`;
    }
  }
}

/**
 * The staff console's Automation section (docs/support-rules.md): the desk's rules with their switch,
 * the form to write one, the auto-close setting and the latest runs. Admins change; support reads.
 */
export function AutomationPanel({ isAdmin }: { isAdmin: boolean }) {
  useLocale();
  const id = useId();
  const rules = useRules();
  const change = useChangeRule();
  const staff = useStaffMembers().data?.staff ?? [];
  const canned = useCannedReplies().data?.replies ?? [];
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const names = new Map<string, string>([
    ...staff.map((s) => [s._id, s.username] as const),
    ...canned.map((c) => [c._id, c.title] as const),
  ]);

  async function toggle(rule: Rule) {
    try {
      await change.mutateAsync({ kind: 'enable', id: rule._id, enabled: !rule.enabled });
      const name = rule.name;
      toast.success(rule.enabled ? t`${name} disabled` : t`${name} enabled`);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to change the rule`));
    }
  }

  async function remove(rule: Rule) {
    const name = rule.name;
    if (!window.confirm(t`Delete the rule "${name}"?`)) return;
    try {
      await change.mutateAsync({ kind: 'delete', id: rule._id });
      toast.success(t`Rule deleted`);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to delete the rule`));
    }
  }

  const conditionList = Object.values(CONDITION_LABELS)
    .map((label) => i18n._(label))
    .join(' · ');
  const actionList = Object.values(ACTION_LABELS)
    .map((label) => i18n._(label))
    .join(' · ');

  return (
    <section className="admin-panel automation" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Automation`}</h2>
      <p className="muted">{t`Rules act on tickets by themselves. A change made by a rule never starts another rule.`}</p>

      <QueryState
        data={rules.data}
        loading={t`Loading rules…`}
        error={rules.error ? errorMessage(rules.error, t`Failed to load rules`) : null}
        onRetry={() => void rules.refetch()}
        isEmpty={(d) => d.rules.length === 0}
        empty={<p>{isAdmin ? t`No rules yet. Create one below.` : t`No rules yet.`}</p>}
      >
        {(data) => (
          <ul className="rule-list" aria-label={t`Rules`}>
            {data.rules.map((rule) => (
              <li key={rule._id} className={`rule-card${rule.enabled ? '' : ' rule-off'}`}>
                <div className="rule-card-head">
                  <strong>{rule.name}</strong>
                  <label className="rule-switch">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-label={t`${rule.name} enabled`}
                      checked={rule.enabled}
                      disabled={!isAdmin || change.isPending}
                      onChange={() => void toggle(rule)}
                    />
                    <span aria-hidden="true">{rule.enabled ? t`Enabled` : t`Disabled`}</span>
                  </label>
                </div>
                <p>
                  <span className="muted">{t`When`}</span> {triggerText(rule)}
                  {rule.conditions.length > 0 && (
                    <>
                      {' '}
                      <span className="muted">{t`if`}</span> {rule.conditions.map(conditionText).join(', ')}
                    </>
                  )}
                </p>
                <p>
                  <span className="muted">{t`Then`}</span> {rule.actions.map((a) => actionText(a, names)).join(' → ')}
                </p>
                {isAdmin && (
                  <div className="rule-card-buttons">
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-label={t`Edit ${rule.name}`}
                      onClick={() => setEditing(rule)}
                    >
                      {t`Edit`}
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-label={t`Delete ${rule.name}`}
                      onClick={() => void remove(rule)}
                    >
                      {t`Delete`}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>

      {isAdmin &&
        (editing ? (
          <RuleForm
            key={editing === 'new' ? 'new' : editing._id}
            rule={editing === 'new' ? null : editing}
            staff={staff}
            cannedReplies={canned}
            saving={change.isPending}
            onCancel={() => setEditing(null)}
            onSave={async (body) => {
              await change.mutateAsync({ kind: 'save', id: editing === 'new' ? null : editing._id, rule: body });
              toast.success(t`Rule saved`);
              setEditing(null);
            }}
          />
        ) : (
          <div className="rule-form-buttons">
            <button type="button" className="btn btn-primary btn-small" onClick={() => setEditing('new')}>
              {t`New rule`}
            </button>
          </div>
        ))}

      <AutoCloseSetting isAdmin={isAdmin} />
      <RunLog />
      <p className="muted automation-legend">{t`Conditions: ${conditionList}. Actions: ${actionList}.`}</p>
    </section>
  );
}

function AutoCloseSetting({ isAdmin }: { isAdmin: boolean }) {
  useLocale();
  const id = useId();
  const setting = useAutoClose();
  const save = useSaveAutoClose();
  const [days, setDays] = useState<string | null>(null);
  const current = setting.data?.autoCloseDays;
  // The shared schema checks the number, and an untouched or empty field is no number; every message shows on the field.
  const form = useForm({
    focus: false,
    schema: autoCloseSettingsSchema,
    values: () => ({ autoCloseDays: Number(days ?? current) }),
    validate: () => ((days ?? '').trim() === '' ? { autoCloseDays: t`Type a number of days` } : {}),
    action: (data) => save.mutateAsync(data),
    onSuccess: () => {
      setDays(null);
      toast.success(t`Auto-close saved`);
    },
    mapFieldErrors: () => ({}),
    formError: (err) => (err instanceof ApiError ? errorMessage(err, err.message) : t`Failed to save`),
  });
  const error = Object.values(form.errors)[0] ?? form.formError;

  return (
    <section aria-labelledby={`${id}-title`} className="auto-close">
      <h3 id={`${id}-title`}>{t`Auto-close`}</h3>
      <QueryState
        data={setting.data}
        loading={t`Loading…`}
        error={setting.error ? errorMessage(setting.error, t`Failed to load the setting`) : null}
        onRetry={() => void setting.refetch()}
      >
        {(data) =>
          isAdmin ? (
            <Form form={form} className="auto-close-form">
              <TextField
                label={t`Close resolved tickets after (days)`}
                inputMode="numeric"
                value={days ?? String(data.autoCloseDays)}
                onChange={(e) => setDays(e.target.value)}
                error={error}
                note={t`0 = never, at most ${AUTO_CLOSE_DAYS_MAX}. The requester is then asked to rate the answer.`}
              />
              <StatusButton busy={save.isPending} className="btn btn-secondary btn-small">
                {t`Save`}
              </StatusButton>
            </Form>
          ) : (
            <p>
              {data.autoCloseDays === 0
                ? t`Resolved tickets are never closed automatically.`
                : plural(data.autoCloseDays, {
                    one: 'Resolved tickets close after # day without a reply.',
                    other: 'Resolved tickets close after # days without a reply.',
                  })}
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

/** The run log's trigger column, from the first word of the event key. */
const EVENT_LABELS: Record<string, MessageDescriptor> = {
  created: msg`ticket created`,
  message: msg`requester message`,
  status: msg`status changed`,
  auto_close: msg`status changed (auto-close)`,
  no_reply: msg`no staff reply`,
};

function eventLabel(event: string): string {
  const label = EVENT_LABELS[event];
  return label ? i18n._(label) : event;
}

function RunLog() {
  useLocale();
  const runs = useRuleRuns();
  return (
    <section aria-label={t`Run log`} className="rule-runs">
      <h3>{t`Latest runs`}</h3>
      <QueryTable
        query={runs}
        label={t`Rule runs`}
        rows={(d) => d.runs}
        loading={t`Loading runs…`}
        failed={t`Failed to load the run log`}
        empty={t`No rule has run yet.`}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        columns={
          <>
            <th scope="col">{t`When`}</th>
            <th scope="col">{t`Rule`}</th>
            <th scope="col">{t`Ticket`}</th>
            <th scope="col">{t`Trigger`}</th>
            <th scope="col">{t`Actions taken`}</th>
          </>
        }
        row={(r) => (
          <tr key={r._id}>
            <td data-label={t`When`}>{formatLocaleDateTime(r.createdAt)}</td>
            <td data-label={t`Rule`}>{r.ruleName}</td>
            <td data-label={t`Ticket`}>{r.ticketNumber === null ? '—' : `#${r.ticketNumber}`}</td>
            <td data-label={t`Trigger`}>{eventLabel(r.event)}</td>
            <td data-label={t`Actions taken`}>{r.actions.join(', ') || '—'}</td>
          </tr>
        )}
      />
    </section>
  );
}
