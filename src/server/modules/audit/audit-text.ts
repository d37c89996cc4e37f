import { formatCredits } from '#shared/fees.js';

/**
 * The audit log as people read it (docs/decisions/0234): one sentence with names per entry, and the
 * fields that changed with their value before and after. Pure: the names come from the caller.
 */

export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
}

export interface AuditTextInput {
  action: string;
  /** "ana (admin)" */
  actorLabel: string;
  /** A user's email, or "ticket 1a2b3c4d"... */
  targetLabel: string;
  before: unknown;
  after: unknown;
  /** Names for user ids found in the entry (an assignee...). */
  names?: ReadonlyMap<string, string>;
}

type Fields = Record<string, unknown>;

const asFields = (value: unknown): Fields => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {});
const cents = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const signed = (c: number) => `${c > 0 ? '+' : c < 0 ? '-' : ''}${formatCredits(Math.abs(c))}`;

/** Field names as words: `balanceCents` → "balance", `assignedTo` → "assigned to". */
function fieldName(key: string): string {
  return key
    .replace(/Cents$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

function formatValue(key: string, value: unknown, names?: ReadonlyMap<string, string>): string | null {
  if (value === null || value === undefined) return null;
  if (key.endsWith('Cents') && typeof value === 'number') return `${formatCredits(value)} credits`;
  if (typeof value === 'string') return names?.get(value) ?? value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value === true ? 'yes' : value === false ? 'no' : value);
  if (Array.isArray(value))
    return value.length === 0 ? 'none' : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (typeof value === 'object' && 'length' in value && typeof (value as { length: unknown }).length === 'number') {
    return `${(value as { length: number }).length} characters`;
  }
  return null;
}

/** The fields of `before` whose value differs in `after` (objects nested deeper are left out). */
export function auditChanges(before: unknown, after: unknown, names?: ReadonlyMap<string, string>): AuditChange[] {
  const b = asFields(before);
  const a = asFields(after);
  // An entry of the generic staff-call hook holds the (redacted) request, not fields of a record.
  if ('request' in a) return [];
  const changes: AuditChange[] = [];
  const nested = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && !('length' in v);
  // The fields the entry had before (what can have changed); a creation lists what it made.
  const keys = Object.keys(b).length > 0 ? Object.keys(b) : Object.keys(a);
  for (const key of keys) {
    const was = b[key];
    const now = a[key];
    if (JSON.stringify(was) === JSON.stringify(now) || nested(was) || nested(now)) continue;
    const from = key in b ? formatValue(key, was, names) : null;
    const to = key in a ? formatValue(key, now, names) : null;
    if (from === null && to === null) continue;
    changes.push({ field: fieldName(key), before: from, after: to });
  }
  return changes;
}

function short(id: string): string {
  return id.slice(0, 8);
}

/** The sentence for one entry. Unknown actions still read as a sentence, naming the call. */
export function auditSentence(input: AuditTextInput): string {
  const { actorLabel: who, targetLabel: target } = input;
  const before = asFields(input.before);
  const after = asFields(input.after);
  switch (input.action) {
    case 'credits.adjusted': {
      const from = cents(before.balanceCents);
      const to = cents(after.balanceCents);
      const amount = cents(after.amountCents) ?? (from !== null && to !== null ? to - from : null);
      const by = amount === null ? '' : ` by ${signed(amount)} credits`;
      const figures = from !== null && to !== null ? `: ${formatCredits(from)} → ${formatCredits(to)}` : '';
      // Four eyes: the approving admin posts it; the one who asked is named too.
      const asked = typeof after.requestedBy === 'string' ? `, approving ${after.requestedBy}'s request` : '';
      return `${who} adjusted the balance of ${target}${by}${figures}${asked}`;
    }
    case 'credits.adjustment_requested': {
      const amount = cents(after.amountCents);
      return `${who} asked a second admin to approve ${amount === null ? 'an adjustment' : `an adjustment of ${signed(amount)} credits`} to the balance of ${target}`;
    }
    case 'credits.adjustment_rejected': {
      const amount = cents(after.amountCents);
      return `${who} rejected ${amount === null ? 'an adjustment' : `an adjustment of ${signed(amount)} credits`} to the balance of ${target}`;
    }
    case 'user.role_changed':
      return `${who} changed the role of ${target}${after.role ? ` to ${String(after.role)}` : ''}`;
    case 'user.disabled': {
      const ended =
        typeof after.sessionsEnded === 'number' ? ` and ended ${after.sessionsEnded} session${after.sessionsEnded === 1 ? '' : 's'}` : '';
      return `${who} disabled the account of ${target}${ended}`;
    }
    case 'user.enabled':
      return `${who} re-enabled the account of ${target}`;
    case 'user.two_factor_reset':
      return `${who} reset the two-factor sign-in of ${target}`;
    case 'ticket.answered':
      return `${who} answered ${target}${typeof after.messageLength === 'number' ? ` (${after.messageLength} characters)` : ''}`;
    case 'ticket.note_added':
      return `${who} added an internal note to ${target}${typeof after.messageLength === 'number' ? ` (${after.messageLength} characters)` : ''}`;
    case 'ticket.updated':
      return `${who} updated ${target}`;
    case 'ticket.merged':
      return `${who} merged a duplicate into ${target}`;
    case 'ticket.file_attached':
      return `${who} attached a file to ${target}`;
    case 'payment.rechecked':
    case 'exchange.rechecked':
      return `${who} asked the provider about ${target} again${before.status !== after.status && after.status ? `: ${String(before.status)} → ${String(after.status)}` : ''}`;
    case 'api-key.created':
      return `${who} created the API key ${after.name ? `“${String(after.name)}”` : target}`;
    case 'api-key.revoked':
      return `${who} revoked the API key ${before.name ? `“${String(before.name)}”` : target}`;
    case 'order.fulfilled':
      return `${who} fulfilled ${target}`;
    case 'order.refunded':
      return `${who} refunded ${target}`;
    case 'catalogue.item_created':
      return `${who} added ${target} to the catalogue`;
    case 'help.article_created':
      return `${who} wrote the help article “${String(after.title ?? target)}”${after.status === 'published' ? ' and published it' : ' (draft)'}`;
    case 'help.article_updated':
      if (before.status !== after.status)
        return `${who} ${after.status === 'published' ? 'published' : 'unpublished'} the help article “${String(after.title ?? target)}”`;
      return `${who} edited the help article “${String(after.title ?? target)}”`;
    case 'help.translation_saved':
      return `${who} ${input.before ? 'edited' : 'wrote'} the ${String(after.locale)} translation “${String(after.title ?? target)}” of a help article`;
    case 'help.translation_deleted':
      return `${who} removed the ${String(before.locale)} translation “${String(before.title ?? target)}” of a help article`;
    case 'webhook.delivery.replay':
      return `${who} sent ${target} again`;
    default: {
      const [noun, verb] = input.action.split('.');
      if (verb && /^[a-z_]+$/.test(verb) && noun) return `${who}: ${noun.replace(/[_-]/g, ' ')} ${verb.replace(/_/g, ' ')} (${target})`;
      return `${who} made a change through ${input.action} (${target})`;
    }
  }
}

/** How the target reads when no name is known: its kind and the start of its id. */
export function fallbackTargetLabel(targetType: string, targetId: string | null): string {
  const kind = targetType.replace(/[_-]/g, ' ');
  return targetId ? `${kind} ${short(targetId)}` : kind;
}
