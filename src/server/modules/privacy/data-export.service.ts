import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { DATA_EXPORT_INTERVAL_HOURS, DATA_EXPORT_TTL_DAYS, type DataExport, type DataExportStatus } from '#shared/schemas/privacy.js';
import { isUuid } from '#shared/schemas/common.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { knownDevices } from '#server/modules/auth/known-devices.tables.js';
import { sessions } from '#server/modules/auth/sessions.tables.js';
import { adCampaigns, ads } from '#server/modules/ads/ads.tables.js';
import { orders } from '#server/modules/catalogue/catalogue.tables.js';
import { charges } from '#server/modules/charges/charges.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { toLedgerEntryDto } from '#server/modules/credits/ledger.service.js';
import { exchanges } from '#server/modules/exchange/exchange.tables.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { mailMessages, mailPreferences } from '#server/modules/mail/mail.tables.js';
import { dataExportReadyMail } from '#server/modules/mail/templates/data-export-ready.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { csvText } from '#server/modules/receipts/receipts.service.js';
import { AttachmentStore } from '#server/modules/tickets/attachments.js';
import { ticketAttachments, ticketMessages, tickets } from '#server/modules/tickets/tickets.tables.js';
import { passkeys, twoFactor, twoFactorRecoveryCodes } from '#server/modules/two-factor/two-factor.tables.js';
import { users } from '#server/modules/users/users.tables.js';
import { webhookDeliveries, webhooks } from '#server/modules/webhooks/webhooks.tables.js';
import { dataExports, type DataExportRow } from './privacy.tables.js';

/**
 * The export is built as a task of the mail queue (background work that ends in a mail), not a queue of
 * its own: every pg-boss queue is a partition table made at start, slow on the embedded database.
 */
export const DATA_EXPORT_TASK = 'privacy.export';
/** The mail kinds that are security or account notices: they belong in the security log. */
const NOTICE_KINDS = [
  'password_changed',
  'email_change_requested',
  'email_changed',
  'new_device',
  'two_factor_notice',
  'webhook_disabled',
  'account_restored',
];

export interface DataExportDeps {
  db: DbOrTx;
  mail: MailService;
  /** ATTACHMENTS_DIR: ticket files are read from it, the exports are kept in its `exports` folder. */
  attachmentsDir: string;
}

export const exportStore = (attachmentsDir: string) => new AttachmentStore(path.join(attachmentsDir, 'exports'));

/** What a row is now: a ready export past its 7 days is `expired` (its file is deleted by the prune job). */
function statusOf(row: DataExportRow, now = new Date()): DataExportStatus {
  if (row.status === 'ready' && row.expiresAt && row.expiresAt <= now) return 'expired';
  return row.status;
}

export function toDataExportDto(row: DataExportRow): DataExport {
  const status = statusOf(row);
  return {
    exportId: row.id,
    status,
    progress: status === 'pending' ? row.progress : 100,
    requestedAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: status === 'ready' ? row.sizeBytes : null,
    nextRequestAt: new Date(row.requestedAt.getTime() + DATA_EXPORT_INTERVAL_HOURS * 60 * 60 * 1000).toISOString(),
  };
}

/**
 * POST /api/users/me/export: one export a day (docs/product.md#privacy). Under the user's row lock, so
 * two requests at once make one export; the job is queued on the same transaction. A failed export does
 * not count against the day.
 */
export async function requestDataExport(deps: Pick<DataExportDeps, 'db' | 'mail'>, userId: string): Promise<{ exportId: string }> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
    const [recent] = await tx
      .select()
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, userId),
          ne(dataExports.status, 'failed'),
          gt(dataExports.requestedAt, sql`now() - make_interval(hours => ${DATA_EXPORT_INTERVAL_HOURS})`),
        ),
      )
      .orderBy(desc(dataExports.requestedAt))
      .limit(1);
    if (recent) {
      const next = new Date(recent.requestedAt.getTime() + DATA_EXPORT_INTERVAL_HOURS * 60 * 60 * 1000);
      const retryAfter = Math.max(1, Math.ceil((next.getTime() - Date.now()) / 1000));
      throw new AppError(
        'EXPORT_ALREADY_REQUESTED',
        `You can ask for one copy of your data a day. The next one can be requested after ${next.toUTCString()}.`,
        {
          details: { exportId: recent.id, nextRequestAt: next.toISOString() },
          retryAfter,
        },
      );
    }
    const [row] = await tx.insert(dataExports).values({ userId }).returning({ id: dataExports.id });
    await deps.mail.runTask(DATA_EXPORT_TASK, { exportId: row!.id }, { tx: tx as Tx });
    return { exportId: row!.id };
  });
}

async function ownExport(db: DbOrTx, userId: string, exportId: string): Promise<DataExportRow> {
  if (!isUuid(exportId)) throw notFound('Export not found');
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Export not found');
  return row;
}

/** GET /api/users/me/exports/{id}: someone else's export, or none, is the same 404. */
export async function getDataExport(db: DbOrTx, userId: string, exportId: string): Promise<DataExport> {
  return toDataExportDto(await ownExport(db, userId, exportId));
}

/** My most recent export still worth showing (requested within the last 7 days), or null. */
export async function latestDataExport(db: DbOrTx, userId: string): Promise<DataExport | null> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gt(dataExports.requestedAt, sql`now() - make_interval(days => ${DATA_EXPORT_TTL_DAYS})`)))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  return row ? toDataExportDto(row) : null;
}

/** The ZIP as a stream and its size (never read whole: decision 0308), for the owner, while the export is ready (409 while pending, 410 once expired). */
export async function openDataExport(deps: Pick<DataExportDeps, 'db' | 'attachmentsDir'>, userId: string, exportId: string) {
  const row = await ownExport(deps.db, userId, exportId);
  const status = statusOf(row);
  if (status === 'expired') throw new AppError('EXPORT_EXPIRED', 'This copy of your data has expired. Request a new one.');
  if (status !== 'ready' || !row.storageKey) throw new AppError('EXPORT_NOT_READY', 'This copy of your data is not ready yet.');
  const file = await exportStore(deps.attachmentsDir)
    .openStream(row.storageKey)
    .catch(() => {
      throw new AppError('EXPORT_EXPIRED', 'This copy of your data is no longer available. Request a new one.');
    });
  return { ...file, filename: `olympus-data-${row.requestedAt.toISOString().slice(0, 10)}.zip` };
}

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
/** A name safe in a ZIP path: no folders, no control characters, no dots at the start. */
const safeName = (name: string) =>
  name
    .replace(/[^\w.\- ]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100) || 'file';

const LEDGER_CSV_HEADER = ['date', 'entry_id', 'kind', 'description', 'amount', 'balance_after', 'reference'];

/** One file of the ZIP: bytes made here (JSON, CSV, text), or a ticket attachment read from its store. */
export type ExportEntry = { name: string; data: Uint8Array } | { name: string; stream: AsyncIterable<Uint8Array> };

/**
 * Yields the files of one user's export, one at a time (README "A copy of my data" lists each file and
 * field). Every query is filtered by the user's id; secrets, hashes, internal notes, staff audit data and
 * provider raw data are never selected. An attachment is opened only when its turn comes and streamed
 * (decision 0308), so the export never holds more than a chunk of one file.
 */
export async function* exportEntries(
  db: DbOrTx,
  store: AttachmentStore,
  userId: string,
  onProgress: (percent: number) => Promise<void> = async () => undefined,
): AsyncGenerator<ExportEntry> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new Error('export of a user that does not exist');

  // account.json
  const [tf] = await db.select({ totpEnabledAt: twoFactor.totpEnabledAt }).from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
  const codes = await db
    .select({ usedAt: twoFactorRecoveryCodes.usedAt })
    .from(twoFactorRecoveryCodes)
    .where(eq(twoFactorRecoveryCodes.userId, userId));
  const keys = await db
    .select({
      name: passkeys.name,
      deviceType: passkeys.deviceType,
      backedUp: passkeys.backedUp,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  const [prefs] = await db.select().from(mailPreferences).where(eq(mailPreferences.userId, userId)).limit(1);
  yield {
    name: 'account.json',
    data: json({
      profile: {
        id: user.id,
        username: user.username,
        email: user.email,
        role: user.role,
        referralCode: user.referralCode,
        referredBy: user.referredBy,
        creditsCents: user.creditsCents,
        onboardingCompleted: user.onboardingCompleted,
        createdAt: iso(user.createdAt),
        updatedAt: iso(user.updatedAt),
        disabledAt: iso(user.disabledAt),
      },
      verification: { emailVerified: user.emailVerifiedAt !== null, emailVerifiedAt: iso(user.emailVerifiedAt) },
      twoFactor: {
        authenticatorApp: tf?.totpEnabledAt ? { enabled: true, enabledAt: iso(tf.totpEnabledAt) } : { enabled: false, enabledAt: null },
        recoveryCodes: { total: codes.length, unused: codes.filter((c) => c.usedAt === null).length },
        passkeys: keys.map((k) => ({
          name: k.name,
          deviceType: k.deviceType,
          backedUp: k.backedUp,
          createdAt: iso(k.createdAt),
          lastUsedAt: iso(k.lastUsedAt),
        })),
      },
      connections: {
        discord: user.discord
          ? { id: user.discord.id, username: user.discord.username, avatar: user.discord.avatar, connectedAt: user.discord.connectedAt }
          : null,
        telegram: user.telegram
          ? {
              id: user.telegram.id,
              username: user.telegram.username,
              firstName: user.telegram.firstName,
              lastName: user.telegram.lastName,
              connectedAt: user.telegram.connectedAt,
            }
          : null,
      },
      notificationSettings: {
        paymentCredited: prefs?.paymentCredited ?? true,
        ticketReply: prefs?.ticketReply ?? true,
        orderUpdates: prefs?.orderUpdates ?? true,
        securityNotices: 'always sent',
      },
    }),
  };
  await onProgress(10);

  // sessions.json and the sign-ins of security-log.json
  const sessionRows = await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt));
  const now = new Date();
  const sessionDtos = sessionRows.map((s) => ({
    id: s.id,
    startedAt: iso(s.createdAt),
    lastSeenAt: iso(s.lastSeenAt),
    expiresAt: iso(s.expiresAt),
    endedAt: iso(s.revokedAt ?? (s.expiresAt <= now ? s.expiresAt : null)),
    active: s.revokedAt === null && s.expiresAt > now,
    rememberMe: s.rememberMe,
    ip: s.ip,
    userAgent: s.userAgent,
  }));
  yield { name: 'sessions.json', data: json({ sessions: sessionDtos }) };
  await onProgress(20);

  // ledger.csv and ledger.json
  const entries = await db
    .select()
    .from(creditLedgerEntries)
    .where(eq(creditLedgerEntries.userId, userId))
    .orderBy(asc(creditLedgerEntries.createdAt), asc(creditLedgerEntries.balanceAfterCents), asc(creditLedgerEntries.id));
  const ledger = entries.map(toLedgerEntryDto);
  yield { name: 'ledger.json', data: json({ balanceCents: user.creditsCents, entries: ledger }) };
  const csvLines = [LEDGER_CSV_HEADER.join(',')];
  for (const e of ledger) {
    csvLines.push(
      [
        e.createdAt,
        e._id,
        csvText(e.kind),
        csvText(e.description),
        (e.amountCents / 100).toFixed(2),
        (e.balanceAfterCents / 100).toFixed(2),
        csvText(e.reference),
      ].join(','),
    );
  }
  yield { name: 'ledger.csv', data: strToU8(`${csvLines.join('\r\n')}\r\n`) };
  await onProgress(35);

  // payments.json, exchanges.json, orders.json, charges.json
  const paymentRows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.createdAt));
  yield {
    name: 'payments.json',
    data: json({
      payments: paymentRows.map((p) => ({
        id: p.id,
        status: p.status,
        priceAmountCents: p.priceAmountCents,
        priceCurrency: p.priceCurrency,
        payCurrency: p.payCurrency,
        payAmount: p.payAmount,
        payAddress: p.payAddress,
        payinExtraId: p.payinExtraId,
        network: p.network,
        feePercent: p.feePercent,
        feeCents: p.feeCents,
        creditsCents: p.creditsCents,
        creditedCents: p.creditedCents,
        actuallyPaid: p.actuallyPaid,
        txHash: p.txHash,
        providerPaymentId: p.providerPaymentId,
        failureReason: p.failureReason,
        createdAt: iso(p.createdAt),
        expiresAt: iso(p.expiresAt),
        completedAt: iso(p.completedAt),
      })),
    }),
  };
  const exchangeRows = await db.select().from(exchanges).where(eq(exchanges.userId, userId)).orderBy(asc(exchanges.createdAt));
  yield {
    name: 'exchanges.json',
    data: json({
      exchanges: exchangeRows.map((x) => ({
        id: x.id,
        status: x.status,
        fromCurrency: x.fromCurrency,
        toCurrency: x.toCurrency,
        amountFrom: x.amountFrom,
        expectedAmountTo: x.expectedAmountTo,
        amountSent: x.amountSent,
        amountReceived: x.amountReceived,
        payinAddress: x.payinAddress,
        payinExtraId: x.payinExtraId,
        payoutAddress: x.payoutAddress,
        payoutExtraId: x.payoutExtraId,
        refundAddress: x.refundAddress,
        refundExtraId: x.refundExtraId,
        rateType: x.rateType,
        payinHash: x.payinHash,
        payoutHash: x.payoutHash,
        usdValueCents: x.usdValueCents,
        rewardCents: x.rewardCents,
        earnedRewardCents: x.earnedRewardCents,
        rewardMode: x.rewardMode,
        rewardCreditedAt: iso(x.rewardCreditedAt),
        createdAt: iso(x.createdAt),
        finishedAt: iso(x.finishedAt),
      })),
    }),
  };
  const orderRows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
  yield {
    name: 'orders.json',
    data: json({
      orders: orderRows.map((o) => ({
        id: o.id,
        itemId: o.itemId,
        itemName: o.itemName,
        priceCents: o.priceCents,
        status: o.status,
        ledgerEntryId: o.ledgerEntryId,
        refundLedgerEntryId: o.refundLedgerEntryId,
        createdAt: iso(o.createdAt),
        fulfilledAt: iso(o.fulfilledAt),
        refundedAt: iso(o.refundedAt),
      })),
    }),
  };
  const chargeRows = await db.select().from(charges).where(eq(charges.userId, userId)).orderBy(asc(charges.createdAt));
  yield {
    name: 'charges.json',
    data: json({
      charges: chargeRows.map((c) => ({
        id: c.id,
        amountCents: c.amountCents,
        description: c.description,
        metadata: c.metadata,
        status: c.status,
        createdAt: iso(c.createdAt),
        refundedAt: iso(c.refundedAt),
      })),
    }),
  };
  // campaigns.json: the person's own ad campaigns and their creatives (decision 0304): the terms, the money
  // (spent, still reserved, refunded), the review's outcome and reason as the owner sees them, and the
  // daily delivery figures. Who reviewed a creative (a staff account) is not theirs and is left out.
  const campaignRows = await db
    .select()
    .from(adCampaigns)
    .where(eq(adCampaigns.ownerId, userId))
    .orderBy(asc(adCampaigns.createdAt), asc(adCampaigns.id));
  const campaignIds = campaignRows.map((c) => c.id);
  const creativeRows = campaignIds.length
    ? await db.select().from(ads).where(inArray(ads.campaignId, campaignIds)).orderBy(asc(ads.createdAt), asc(ads.id))
    : [];
  const dayRows = campaignIds.length
    ? (
        await db.execute<{
          campaign_id: string;
          ad_id: string;
          day: string;
          served: number;
          viewable: number;
          clicks: number;
          spend: string;
        }>(sql`
          SELECT campaign_id, ad_id, to_char(day, 'YYYY-MM-DD') AS day, served, viewable, clicks, spend_millicents AS spend FROM ad_campaign_days
          WHERE campaign_id IN (${sql.join(
            campaignIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) ORDER BY day, ad_id`)
      ).rows
    : [];
  yield {
    name: 'campaigns.json',
    data: json({
      campaigns: campaignRows.map((c) => ({
        id: c.id,
        name: c.name,
        placements: c.placements,
        startsAt: iso(c.startsAt),
        endsAt: iso(c.endsAt),
        priceModel: c.priceModel,
        priceCents: c.priceCents,
        budgetCents: c.budgetCents,
        dailyBudgetCents: c.dailyBudgetCents,
        frequencyCap: c.frequencyCap,
        remainingMillicents: c.remainingMillicents,
        status: c.status,
        endReason: c.endReason,
        refundedCents: c.refundedCents,
        createdAt: iso(c.createdAt),
        endedAt: iso(c.endedAt),
        creatives: creativeRows
          .filter((a) => a.campaignId === c.id)
          .map((a) => ({
            id: a.id,
            kind: a.kind,
            title: a.title,
            body: a.body,
            imageUrl: a.imageUrl,
            imageAlt: a.imageAlt,
            targetUrl: a.targetUrl,
            reviewStatus: a.reviewStatus,
            reviewReason: a.reviewReason,
            reviewedAt: iso(a.reviewedAt),
            createdAt: iso(a.createdAt),
            updatedAt: iso(a.updatedAt),
          })),
        days: dayRows
          .filter((d) => d.campaign_id === c.id)
          .map((d) => ({
            day: d.day,
            creativeId: d.ad_id,
            served: Number(d.served),
            viewable: Number(d.viewable),
            clicks: Number(d.clicks),
            spendMillicents: Number(d.spend),
          })),
      })),
    }),
  };
  await onProgress(50);

  // tickets.json and attachments/: replies and notices only; an internal note (and a file on one) never.
  const ticketRows = await db.select().from(tickets).where(eq(tickets.userId, userId)).orderBy(asc(tickets.createdAt));
  const ticketIds = ticketRows.map((t) => t.id);
  const messageRows = ticketIds.length
    ? await db
        .select()
        .from(ticketMessages)
        .where(and(inArray(ticketMessages.ticketId, ticketIds), ne(ticketMessages.kind, 'internal')))
        .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id))
    : [];
  const fileRows = messageRows.length
    ? await db
        .select()
        .from(ticketAttachments)
        .where(
          inArray(
            ticketAttachments.messageId,
            messageRows.map((m) => m.id),
          ),
        )
        .orderBy(asc(ticketAttachments.createdAt))
    : [];
  // Each file is streamed into the ZIP before tickets.json is written, so the listing knows which are there.
  const filePaths = new Map<string, string | null>();
  let filesDone = 0;
  for (const f of fileRows) {
    const ticket = ticketRows.find((t) => t.id === f.ticketId)!;
    const zipPath = `attachments/${ticket.number}/${f.id}-${safeName(f.filename)}`;
    const opened = await store.openStream(f.storageKey).catch(() => null);
    filePaths.set(f.id, opened ? zipPath : null); // a file gone from storage: the listing says so
    if (opened) yield { name: zipPath, stream: opened.stream };
    filesDone += 1;
    const percent = 50 + Math.floor((25 * filesDone) / fileRows.length);
    if (percent > 50 + Math.floor((25 * (filesDone - 1)) / fileRows.length)) await onProgress(percent);
  }
  yield {
    name: 'tickets.json',
    data: json({
      tickets: ticketRows.map((t) => ({
        id: t.id,
        number: t.number,
        subject: t.subject,
        category: t.category,
        priority: t.priority,
        status: t.status,
        createdAt: iso(t.createdAt),
        lastMessageAt: iso(t.lastMessageAt),
        closedAt: iso(t.closedAt),
        rating: t.rating !== null ? { score: t.rating, comment: t.ratingComment, ratedAt: iso(t.ratedAt) } : null,
        messages: messageRows
          .filter((m) => m.ticketId === t.id)
          .map((m) => ({
            id: m.id,
            author: m.author === 'staff' ? 'support' : 'you',
            kind: m.kind,
            body: m.body,
            createdAt: iso(m.createdAt),
            attachments: fileRows
              .filter((f) => f.messageId === m.id)
              .map((f) => ({
                id: f.id,
                filename: f.filename,
                contentType: f.contentType,
                size: f.size,
                file: filePaths.get(f.id) ?? null,
              })),
          })),
      })),
    }),
  };
  await onProgress(75);

  // webhooks.json: the settings without the secret (nor its hint), and the delivery log without payloads.
  const [hook] = await db.select().from(webhooks).where(eq(webhooks.userId, userId)).limit(1);
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      event: webhookDeliveries.event,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      createdAt: webhookDeliveries.createdAt,
      deliveredAt: webhookDeliveries.deliveredAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.userId, userId))
    .orderBy(asc(webhookDeliveries.createdAt));
  yield {
    name: 'webhooks.json',
    data: json({
      webhook: hook
        ? {
            url: hook.url,
            events: hook.events,
            enabled: hook.enabled,
            secretRotatedAt: iso(hook.secretRotatedAt),
            failingSince: iso(hook.failingSince),
            disabledAt: iso(hook.disabledAt),
            createdAt: iso(hook.createdAt),
            updatedAt: iso(hook.updatedAt),
          }
        : null,
      deliveries: deliveries.map((d) => ({ ...d, createdAt: iso(d.createdAt), deliveredAt: iso(d.deliveredAt) })),
    }),
  };
  await onProgress(85);

  // security-log.json: sign-ins and account events, newest first. Staff actions (the audit log) are not in it.
  const devices = await db.select().from(knownDevices).where(eq(knownDevices.userId, userId));
  const notices = await db
    .select({ kind: mailMessages.kind, subject: mailMessages.subject, createdAt: mailMessages.createdAt })
    .from(mailMessages)
    .where(and(eq(mailMessages.userId, userId), inArray(mailMessages.kind, NOTICE_KINDS)));
  type Event = { at: string; event: string; detail: string | null };
  const events: Event[] = [];
  const add = (at: Date | string | null | undefined, event: string, detail: string | null = null) => {
    if (at) events.push({ at: typeof at === 'string' ? at : at.toISOString(), event, detail });
  };
  add(user.createdAt, 'account.created');
  add(user.emailVerifiedAt, 'email.verified');
  add(user.passwordChangedAt, 'password.changed');
  add(user.disabledAt, 'account.disabled');
  add(tf?.totpEnabledAt, 'two_factor.enabled');
  for (const k of keys) add(k.createdAt, 'passkey.added', k.name);
  add(user.discord?.connectedAt, 'discord.connected', user.discord?.username ?? null);
  add(user.telegram?.connectedAt, 'telegram.connected', user.telegram?.username ?? null);
  for (const d of devices) add(d.firstSeenAt, 'device.first_seen');
  for (const n of notices) add(n.createdAt, `notice.${n.kind}`, n.subject);
  events.sort((a, b) => b.at.localeCompare(a.at));
  yield {
    name: 'security-log.json',
    data: json({
      signIns: [...sessionDtos].reverse().map((s) => ({ at: s.startedAt, ip: s.ip, userAgent: s.userAgent, sessionId: s.id })),
      events,
    }),
  };
  yield {
    name: 'README.txt',
    data: strToU8(
      [
        `A copy of the data Olympus holds about ${user.username}, made ${new Date().toUTCString()}.`,
        'Every file is described in the README of Olympus, section "A copy of my data".',
        'Amounts ending in Cents are integer cents of USD (1 credit = 1 USD); times are ISO 8601 in UTC.',
        '',
      ].join('\r\n'),
    ),
  };
  await onProgress(95);
}

/** Deflate input is handed over this much at a time, with a turn of the event loop in between. */
const ZIP_CHUNK_BYTES = 64 * 1024;

/**
 * The ZIP of `entries` as a stream of chunks (decision 0308): fflate's streaming `Zip`, the JSON, CSV and
 * text files deflated (`ZipDeflate`, level 6) a chunk at a time, attachments stored as they are
 * (`ZipPassThrough`: already compressed images and PDFs) chunk by chunk from their file. The consumer
 * pulls: the next entry is not read until what came before has been taken (written to the file), and
 * every chunk gives the event loop a turn, so other requests are served while an export is built.
 */
export async function* zipStream(entries: AsyncIterable<ExportEntry>, mtime: Date): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure ??= err;
    else if (chunk.length > 0) ready.push(chunk);
  });
  function* take(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  }
  for await (const entry of entries) {
    if ('data' in entry) {
      const file = new ZipDeflate(entry.name, { level: 6 });
      file.mtime = mtime;
      zip.add(file);
      let at = 0;
      do {
        const end = Math.min(at + ZIP_CHUNK_BYTES, entry.data.length);
        file.push(entry.data.subarray(at, end), end === entry.data.length);
        at = end;
        yield* take();
        await nextTurn();
      } while (at < entry.data.length);
    } else {
      const file = new ZipPassThrough(entry.name);
      file.mtime = mtime;
      zip.add(file);
      for await (const chunk of entry.stream) {
        file.push(chunk as Uint8Array);
        yield* take();
      }
      file.push(new Uint8Array(0), true);
      yield* take();
    }
  }
  zip.end();
  yield* take();
}

/**
 * The job: builds the ZIP, stores it, marks the export ready and queues the "ready" mail on the same
 * transaction. A second run of a finished export does nothing. A run that fails marks the export
 * failed (it then does not count against the day, so the person can ask again) and rethrows for the
 * log; a run killed half way leaves it pending, and pg-boss runs it again once the job expires.
 */
export async function buildDataExport(deps: DataExportDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId)).limit(1);
  if (!row || row.status !== 'pending') return;
  const store = exportStore(deps.attachmentsDir);
  let key: string | null = null;
  try {
    const entries = exportEntries(db, new AttachmentStore(deps.attachmentsDir), row.userId, async (progress) => {
      await db
        .update(dataExports)
        .set({ progress })
        .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
    });
    const saved = await store.saveStream(zipStream(entries, new Date()));
    key = saved.key;
    const savedKey = key;
    const done = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(dataExports)
        .set({
          status: 'ready',
          progress: 100,
          storageKey: savedKey,
          sizeBytes: saved.size,
          readyAt: sql`now()`,
          expiresAt: sql`now() + make_interval(days => ${DATA_EXPORT_TTL_DAYS})`,
        })
        .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')))
        .returning();
      if (!updated) return false;
      const [user] = await tx
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(eq(users.id, updated.userId))
        .limit(1);
      if (user) {
        await deps.mail.queueSafely(tx, {
          userId: updated.userId,
          kind: 'data_export_ready',
          to: user.email,
          mail: dataExportReadyMail({
            username: user.username,
            expires: updated.expiresAt!.toUTCString(),
            settingsUrl: deps.mail.link('/dashboard/settings', {}) + '#privacy',
          }),
        });
      }
      return true;
    });
    if (!done) await store.remove(savedKey); // another run finished it first
  } catch (err) {
    if (key) await store.remove(key);
    await db
      .update(dataExports)
      .set({ status: 'failed' })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
    throw err;
  }
}

/**
 * Deletes exports past their 7 days (the file first, then the row), exports that failed, and requests
 * left pending for 7 days. Called by the prune job (README "How long we keep things").
 */
export async function pruneDataExports(db: DbOrTx, attachmentsDir: string): Promise<number> {
  const store = exportStore(attachmentsDir);
  const old = await db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(
      or(
        and(isNotNull(dataExports.expiresAt), lt(dataExports.expiresAt, sql`now()`)),
        and(ne(dataExports.status, 'ready'), lt(dataExports.requestedAt, sql`now() - make_interval(days => ${DATA_EXPORT_TTL_DAYS})`)),
      ),
    );
  for (const row of old) if (row.storageKey) await store.remove(row.storageKey);
  if (old.length === 0) return 0;
  const deleted = await db.delete(dataExports).where(
    inArray(
      dataExports.id,
      old.map((r) => r.id),
    ),
  );
  return deleted.rowCount ?? old.length;
}
