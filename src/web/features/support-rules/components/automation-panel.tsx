import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  AUTO_CLOSE_DAYS_MAX,
  RULE_ACTION_LABELS,
  RULE_CONDITION_LABELS,
  RULE_TRIGGER_LABELS,
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
import { formatDateTime } from '#web/lib/format';
import { useCannedReplies, useStaffMembers } from '#web/features/tickets';
import { useAutoClose, useChangeRule, useRuleRuns, useRules, useSaveAutoClose } from '../api/support-rules-api';
import { RuleForm } from './rule-form';
import './support-rules.css';

function triggerText(rule: Rule): string {
  const t = rule.trigger;
  if (t.type === 'no_staff_reply') return `No staff reply for ${t.hours} business hour${t.hours === 1 ? '' : 's'}`;
  if (t.type === 'status_changed') return t.to ? `Status changed to ${t.to}` : 'Status changed';
  return RULE_TRIGGER_LABELS[t.type];
}

function conditionText(c: RuleCondition): string {
  switch (c.type) {
    case 'subject_contains':
      return `subject contains "${c.text}"`;
    case 'priority_in':
      return `priority ${c.priorities.join(' or ')}`;
    case 'requester_kind':
      return `requester is a ${c.kind}`;
    case 'has_tag':
      return `has tag ${c.tag}`;
    case 'lacks_tag':
      return `lacks tag ${c.tag}`;
  }
}

function actionText(a: RuleAction, names: Map<string, string>): string {
  switch (a.type) {
    case 'assign':
      return `assign to ${names.get(a.assigneeId) ?? 'a staff member'}`;
    case 'set_priority':
      return `priority ${a.priority}`;
    case 'add_tag':
      return `tag ${a.tag}`;
    case 'canned_reply':
      return `canned reply "${names.get(a.cannedReplyId) ?? '?'}"`;
    case 'internal_note':
      return 'internal note';
    case 'close':
      return 'close';
    case 'set_status':
      return `status ${a.status}`;
  }
}

/**
 * The staff console's Automation section (docs/support-rules.md): the desk's rules with their switch,
 * the form to write one, the auto-close setting and the latest runs. Admins change; support reads.
 */
export function AutomationPanel({ isAdmin }: { isAdmin: boolean }) {
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
      toast.success(`${rule.name} ${rule.enabled ? 'disabled' : 'enabled'}`);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to change the rule'));
    }
  }

  async function remove(rule: Rule) {
    if (!window.confirm(`Delete the rule "${rule.name}"?`)) return;
    try {
      await change.mutateAsync({ kind: 'delete', id: rule._id });
      toast.success('Rule deleted');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to delete the rule'));
    }
  }

  return (
    <section className="admin-panel automation" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Automation</h2>
      <p className="muted">Rules act on tickets by themselves. A change made by a rule never starts another rule.</p>

      <QueryState
        data={rules.data}
        loading="Loading rules…"
        error={rules.error ? errorMessage(rules.error, 'Failed to load rules') : null}
        onRetry={() => void rules.refetch()}
        isEmpty={(d) => d.rules.length === 0}
        empty={<p>No rules yet.{isAdmin ? ' Create one below.' : ''}</p>}
      >
        {(data) => (
          <ul className="rule-list" aria-label="Rules">
            {data.rules.map((rule) => (
              <li key={rule._id} className={`rule-card${rule.enabled ? '' : ' rule-off'}`}>
                <div className="rule-card-head">
                  <strong>{rule.name}</strong>
                  <label className="rule-switch">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-label={`${rule.name} enabled`}
                      checked={rule.enabled}
                      disabled={!isAdmin || change.isPending}
                      onChange={() => void toggle(rule)}
                    />
                    <span aria-hidden="true">{rule.enabled ? 'Enabled' : 'Disabled'}</span>
                  </label>
                </div>
                <p>
                  <span className="muted">When</span> {triggerText(rule)}
                  {rule.conditions.length > 0 && (
                    <>
                      {' '}
                      <span className="muted">if</span> {rule.conditions.map(conditionText).join(', ')}
                    </>
                  )}
                </p>
                <p>
                  <span className="muted">Then</span> {rule.actions.map((a) => actionText(a, names)).join(' → ')}
                </p>
                {isAdmin && (
                  <div className="rule-card-buttons">
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-label={`Edit ${rule.name}`}
                      onClick={() => setEditing(rule)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-label={`Delete ${rule.name}`}
                      onClick={() => void remove(rule)}
                    >
                      Delete
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
              toast.success('Rule saved');
              setEditing(null);
            }}
          />
        ) : (
          <div className="rule-form-buttons">
            <button type="button" className="btn btn-primary btn-small" onClick={() => setEditing('new')}>
              New rule
            </button>
          </div>
        ))}

      <AutoCloseSetting isAdmin={isAdmin} />
      <RunLog />
      <p className="muted automation-legend">
        Conditions: {Object.values(RULE_CONDITION_LABELS).join(' · ')}. Actions: {Object.values(RULE_ACTION_LABELS).join(' · ')}.
      </p>
    </section>
  );
}

function AutoCloseSetting({ isAdmin }: { isAdmin: boolean }) {
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
    validate: () => ((days ?? '').trim() === '' ? { autoCloseDays: 'Type a number of days' } : {}),
    action: (data) => save.mutateAsync(data),
    onSuccess: () => {
      setDays(null);
      toast.success('Auto-close saved');
    },
    mapFieldErrors: () => ({}),
    formError: (err) => (err instanceof ApiError ? err.message : 'Failed to save'),
  });
  const error = Object.values(form.errors)[0] ?? form.formError;

  return (
    <section aria-labelledby={`${id}-title`} className="auto-close">
      <h3 id={`${id}-title`}>Auto-close</h3>
      <QueryState
        data={setting.data}
        loading="Loading…"
        error={setting.error ? errorMessage(setting.error, 'Failed to load the setting') : null}
        onRetry={() => void setting.refetch()}
      >
        {(data) =>
          isAdmin ? (
            <Form form={form} className="auto-close-form">
              <TextField
                label="Close resolved tickets after (days)"
                inputMode="numeric"
                value={days ?? String(data.autoCloseDays)}
                onChange={(e) => setDays(e.target.value)}
                error={error}
                note={`0 = never, at most ${AUTO_CLOSE_DAYS_MAX}. The requester is then asked to rate the answer.`}
              />
              <StatusButton busy={save.isPending} className="btn btn-secondary btn-small">
                Save
              </StatusButton>
            </Form>
          ) : (
            <p>
              {data.autoCloseDays === 0
                ? 'Resolved tickets are never closed automatically.'
                : `Resolved tickets close after ${data.autoCloseDays} days without a reply.`}
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

/** The run log's trigger column, from the first word of the event key. */
const EVENT_LABELS: Record<string, string> = {
  created: 'ticket created',
  message: 'requester message',
  status: 'status changed',
  auto_close: 'status changed (auto-close)',
  no_reply: 'no staff reply',
};

function RunLog() {
  const runs = useRuleRuns();
  return (
    <section aria-label="Run log" className="rule-runs">
      <h3>Latest runs</h3>
      <QueryTable
        query={runs}
        label="Rule runs"
        rows={(d) => d.runs}
        loading="Loading runs…"
        failed="Failed to load the run log"
        empty="No rule has run yet."
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        columns={
          <>
            <th scope="col">When</th>
            <th scope="col">Rule</th>
            <th scope="col">Ticket</th>
            <th scope="col">Trigger</th>
            <th scope="col">Actions taken</th>
          </>
        }
        row={(r) => (
          <tr key={r._id}>
            <td data-label="When">{formatDateTime(r.createdAt)}</td>
            <td data-label="Rule">{r.ruleName}</td>
            <td data-label="Ticket">{r.ticketNumber === null ? '—' : `#${r.ticketNumber}`}</td>
            <td data-label="Trigger">{EVENT_LABELS[r.event] ?? r.event}</td>
            <td data-label="Actions taken">{r.actions.join(', ') || '—'}</td>
          </tr>
        )}
      />
    </section>
  );
}
