import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '#server/db/client.js';
import { accountTokens } from '#server/modules/auth/account-tokens.tables.js';
import { knownDevices } from '#server/modules/auth/known-devices.tables.js';
import { sessions } from '#server/modules/auth/sessions.tables.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { mailPreferences } from '#server/modules/mail/mail.tables.js';
import { statusSubscribers } from '#server/modules/status/status.tables.js';
import type { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { CampaignsService } from '#server/modules/ads/campaigns.service.js';
import {
  notificationChannelStates,
  notificationDeliveries,
  notificationPreferences,
  notifications,
  notificationSettings,
} from '#server/modules/notifications/notifications.tables.js';
import { dataExports } from '#server/modules/privacy/privacy.tables.js';
import { ticketAttachments, ticketMessages, tickets } from '#server/modules/support/tickets/tickets.tables.js';
import {
  loginChallenges,
  passkeys,
  twoFactor,
  twoFactorRecoveryCodes,
  webauthnChallenges,
} from '#server/modules/two-factor/two-factor.tables.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { webhookDeliveries, webhooks } from '#server/modules/webhooks/webhooks.tables.js';
import { ledgerText } from '#shared/ledger-texts.js';

/**
 * The erasure of a closed account (docs/decisions/0255): an ordered list of steps, each run in its own
 * transaction and each safe to run again. The runner stops at the first failure; the next run (the
 * job's next tick, or an admin's "erase now") starts over from the first step, and steps already done
 * find nothing left to do. `erased_at` is written by the last step only, so an account is never marked
 * erased while anything of it is left.
 *
 * Adding a step: append an `ErasureStep` to `ERASURE_STEPS` before `anonymise-account` (which must stay
 * last). A step deletes or blanks what belongs to `user.id`, using only `tx`; it must not fail when its
 * rows are already gone. `user` is the row as it was before this run, so its address and name are still
 * the real ones even when an earlier run was cut short before the last step.
 */
export interface ErasureStepContext {
  tx: Tx;
  user: UserRow;
  attachments: AttachmentStore;
  /** Where copies of people's data are kept (ATTACHMENTS_DIR/exports, decision 0250). */
  exports: AttachmentStore;
  events: DomainEvents;
}

export interface ErasureStep {
  /** Short and stable: tests and logs name steps by it. */
  name: string;
  run(context: ErasureStepContext): Promise<void>;
}

/** What the erased row's address becomes: unique, never deliverable (`.invalid`, RFC 2606). */
export function erasedEmail(userId: string): string {
  return `deleted-${userId}@erased.invalid`;
}

export const ERASURE_STEPS: ErasureStep[] = [
  {
    // Nobody signs in as this account again: sessions (active or ended), devices, pending sign-in steps, mail links.
    name: 'sessions-and-links',
    async run({ tx, user }) {
      await tx.delete(sessions).where(eq(sessions.userId, user.id));
      await tx.delete(knownDevices).where(eq(knownDevices.userId, user.id));
      await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id));
      await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id));
      await tx.delete(accountTokens).where(eq(accountTokens.userId, user.id));
    },
  },
  {
    // Ad campaigns stop, and what their budgets did not spend comes back to the balance by a refund
    // entry (decision 0280), so that the write-off below forfeits it with the rest and the books balance.
    name: 'ad-campaigns',
    async run({ tx, user, events }) {
      await new CampaignsService(tx as unknown as Db, events).endCampaignsOfUser(tx, user.id);
    },
  },
  {
    // The forfeited balance leaves the books through the ledger, like every change of a balance. The
    // reference names the last entry it writes off, so a rerun posts nothing (the balance is 0 then),
    // and credits that arrive after it (a late deposit) are written off by their own entry.
    name: 'write-off-balance',
    async run({ tx, user, events }) {
      const [row] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, user.id)).for('update');
      if (!row || row.creditsCents <= 0) return;
      const [last] = await tx
        .select({ id: creditLedgerEntries.id })
        .from(creditLedgerEntries)
        .where(eq(creditLedgerEntries.userId, user.id))
        .orderBy(desc(creditLedgerEntries.createdAt))
        .limit(1);
      await postLedgerEntry(
        tx,
        {
          userId: user.id,
          amountCents: -row.creditsCents,
          kind: 'forfeit',
          reference: `forfeit:${user.id}:${last?.id ?? 'none'}`,
          description: ledgerText('balanceForfeited', {}),
          metadata: { reason: 'account-erased' },
        },
        events,
      );
    },
  },
  {
    name: 'two-factor',
    async run({ tx, user }) {
      await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
      await tx.delete(passkeys).where(eq(passkeys.userId, user.id));
      await tx.delete(twoFactor).where(eq(twoFactor.userId, user.id));
    },
  },
  {
    name: 'webhooks',
    async run({ tx, user }) {
      await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.userId, user.id));
      await tx.delete(webhooks).where(eq(webhooks.userId, user.id));
    },
  },
  {
    name: 'notification-settings',
    async run({ tx, user }) {
      await tx.delete(mailPreferences).where(eq(mailPreferences.userId, user.id));
      await tx.delete(statusSubscribers).where(eq(statusSubscribers.email, user.email.toLowerCase()));
    },
  },
  {
    // In-app notices, chat deliveries, notification preferences and the channels' state (decision 0260).
    name: 'notifications',
    async run({ tx, user }) {
      await tx.delete(notificationDeliveries).where(eq(notificationDeliveries.userId, user.id));
      await tx.delete(notifications).where(eq(notifications.userId, user.id));
      await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, user.id));
      await tx.delete(notificationSettings).where(eq(notificationSettings.userId, user.id));
      await tx.delete(notificationChannelStates).where(eq(notificationChannelStates.userId, user.id));
    },
  },
  {
    // Copies of the person's data: the files first (a missing file is not an error), then the rows.
    name: 'data-exports',
    async run({ tx, user, exports }) {
      const rows = await tx
        .select({ id: dataExports.id, storageKey: dataExports.storageKey })
        .from(dataExports)
        .where(eq(dataExports.userId, user.id));
      for (const row of rows) if (row.storageKey) await exports.remove(row.storageKey);
      await tx.delete(dataExports).where(eq(dataExports.userId, user.id));
    },
  },
  {
    // The files the person attached to their tickets. The messages stay for staff (shown as "Deleted
    // user"); their files go, first from disk (removing a missing file is not an error), then the rows.
    name: 'ticket-attachments',
    async run({ tx, user, attachments }) {
      const rows = await tx
        .select({ id: ticketAttachments.id, storageKey: ticketAttachments.storageKey })
        .from(ticketAttachments)
        .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
        .innerJoin(tickets, eq(tickets.id, ticketAttachments.ticketId))
        .where(and(eq(ticketMessages.author, 'requester'), eq(tickets.userId, user.id)));
      for (const row of rows) await attachments.remove(row.storageKey);
      if (rows.length > 0)
        await tx.delete(ticketAttachments).where(
          inArray(
            ticketAttachments.id,
            rows.map((r) => r.id),
          ),
        );
    },
  },
  {
    // Last: the name and address are freed, nothing can sign in, and the row says it is erased.
    name: 'anonymise-account',
    async run({ tx, user }) {
      noteUserChanging(user.id);
      await tx
        .update(users)
        .set({
          username: `deleted-${user.id}`,
          email: erasedEmail(user.id),
          passwordHash: '!erased',
          discord: null,
          telegram: null,
          emailVerifiedAt: null,
          subroles: [],
          role: 'user',
          onboardingCompleted: false,
          disabledAt: sql`coalesce(${users.disabledAt}, now())`,
          securityStamp: sql`${users.securityStamp} + 1`,
          erasedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, user.id));
    },
  },
];

export type ErasureOutcome = 'erased' | 'already-erased' | 'not-due' | 'unknown';

export interface ErasureDeps {
  database: Database;
  attachments: AttachmentStore;
  exports: AttachmentStore;
  events: DomainEvents;
  /** Defaults to ERASURE_STEPS; tests pass their own list to cut a run short. */
  steps?: ErasureStep[];
  /** Called after each step commits (tests stop a run there). */
  afterStep?: (name: string) => void | Promise<void>;
}

/** Whether the account is closing and its erasure time has come, by the database's clock (every instance agrees). */
// A held closure (a payment finished while closing, decision 0305) is not due: it waits for the person.
const dueSql = sql<boolean>`(${users.erasureAt} IS NOT NULL AND ${users.erasedAt} IS NULL AND ${users.closureHeldAt} IS NULL AND ${users.erasureAt} <= now())`;

/**
 * Erases one account whose erasure time has come. Each step re-checks, under a lock on the user's row,
 * that the account is still due: a restore that won the race (before the time) leaves it untouched.
 */
export async function eraseAccount(deps: ErasureDeps, userId: string): Promise<ErasureOutcome> {
  const db = deps.database.db;
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return 'unknown';
  if (user.erasedAt) return 'already-erased';
  const [due] = await db.select({ due: dueSql }).from(users).where(eq(users.id, userId));
  if (!due?.due) return await notDueOutcome(db, userId);
  for (const step of deps.steps ?? ERASURE_STEPS) {
    const ran = await db.transaction(async (tx) => {
      // Asked of the database's own clock, under the lock, so a restore that committed first is seen.
      const [row] = await tx.select({ due: dueSql }).from(users).where(eq(users.id, userId)).for('update');
      if (!row?.due) return false;
      await step.run({ tx, user, attachments: deps.attachments, exports: deps.exports, events: deps.events });
      return true;
    });
    if (!ran) return await notDueOutcome(db, userId);
    await deps.afterStep?.(step.name);
  }
  return 'erased';
}

/** Not due any more: restored, held, or erased meanwhile by another run (the scheduled job, another instance). */
async function notDueOutcome(db: ErasureDeps['database']['db'], userId: string): Promise<ErasureOutcome> {
  const [row] = await db.select({ erasedAt: users.erasedAt }).from(users).where(eq(users.id, userId));
  return row?.erasedAt ? 'already-erased' : 'not-due';
}

/** Accounts whose erasure time has come (oldest first), for the job. */
export async function dueErasures(database: Database, limit = 20): Promise<string[]> {
  const rows = await database.db.select({ id: users.id }).from(users).where(dueSql).orderBy(users.erasureAt).limit(limit);
  return rows.map((r) => r.id);
}
