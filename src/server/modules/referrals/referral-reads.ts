import { aliasedTable, and, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminReferral,
  Referral,
  ReferralReportWeek,
  ReferralSettings,
  ReferralSettingsChange,
  ReferralSignals,
  ReferralStatus,
  ReferralSummary,
} from '#shared/schemas/referrals.js';
import { DEFAULT_REFERRAL_SETTINGS } from '#shared/schemas/referrals.js';
import type { DbOrTx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import { isoWeekStart, maskName, rewardsUntil, signalsBetween } from './referral-rules.js';
import { referralRewards, referrals, referralSettings } from './referrals.tables.js';

/** The programme's settings in force: the newest change, or the defaults before any (docs/product.md#referrals). */
export async function currentSettings(db: DbOrTx): Promise<ReferralSettings> {
  const [row] = await db.select().from(referralSettings).orderBy(desc(referralSettings.changedAt), desc(referralSettings.id)).limit(1);
  if (!row) return { ...DEFAULT_REFERRAL_SETTINGS };
  return {
    shareBasisPoints: row.shareBasisPoints,
    rewardDays: row.rewardDays,
    capPerReferredCents: row.capPerReferredCents,
    holdDays: row.holdDays,
    dailyCapCents: row.dailyCapCents,
    lifetimeCapCents: row.lifetimeCapCents,
    welcomeBonusCents: row.welcomeBonusCents,
  };
}

// What the referral programme shows: mine (masked), the staff's list with the signals, the weekly report
// and the settings' history (docs/product.md#referrals).

const DAY_MS = 86_400_000;
const NO_SIGNALS: ReferralSignals = { sameEmail: false, sameDevice: false, sameAddress: false, samePayoutAddress: false };

interface Sums {
  heldCents: number;
  paidCents: number;
  clawedBackCents: number;
}

async function sumsFor(db: DbOrTx, referralIds: string[]): Promise<Map<string, Sums>> {
  if (referralIds.length === 0) return new Map();
  const rows = await db
    .select({
      referralId: referralRewards.referralId,
      held: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'held'), 0)`,
      paid: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'paid'), 0)`,
      clawed: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'clawed_back'), 0)`,
    })
    .from(referralRewards)
    .where(and(inArray(referralRewards.referralId, referralIds), eq(referralRewards.kind, 'referrer_share')))
    .groupBy(referralRewards.referralId);
  return new Map(
    rows.map((r) => [r.referralId, { heldCents: Number(r.held), paidCents: Number(r.paid), clawedBackCents: Number(r.clawed) }]),
  );
}

/** The people who joined with my link, newest first. */
export async function listMine(
  db: DbOrTx,
  userId: string,
  page: { page: number; pageSize: number },
): Promise<{ referrals: Referral[]; total: number }> {
  const settings = await currentSettings(db);
  const rows = await db
    .select({ r: referrals, username: users.username })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredId))
    .where(eq(referrals.referrerId, userId))
    .orderBy(desc(referrals.joinedAt), desc(referrals.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await db.select({ n: count() }).from(referrals).where(eq(referrals.referrerId, userId));
  const sums = await sumsFor(
    db,
    rows.map((x) => x.r.id),
  );
  return {
    referrals: rows.map(({ r, username }) => ({
      _id: r.id,
      maskedName: maskName(username),
      joinedAt: r.joinedAt.toISOString(),
      status: r.status,
      refusalReason: r.refusalReason,
      refusalNote: r.refusalNote,
      rewardsUntil: rewardsUntil(r.joinedAt, settings.rewardDays).toISOString(),
      ...(sums.get(r.id) ?? { heldCents: 0, paidCents: 0, clawedBackCents: 0 }),
    })),
    total: total?.n ?? 0,
  };
}

export async function summary(db: DbOrTx, userId: string): Promise<ReferralSummary> {
  const settings = await currentSettings(db);
  const [me] = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
  if (!me) throw notFound('User not found');
  const statusRows = await db
    .select({ status: referrals.status, n: count() })
    .from(referrals)
    .where(eq(referrals.referrerId, userId))
    .groupBy(referrals.status);
  const by = (s: ReferralStatus) => statusRows.find((r) => r.status === s)?.n ?? 0;
  const [sums] = await db
    .select({
      held: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'held'), 0)`,
      paid: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'paid'), 0)`,
      clawed: sql<string>`coalesce(sum(${referralRewards.amountCents}) FILTER (WHERE ${referralRewards.state} = 'clawed_back'), 0)`,
      next: sql<Date | string | null>`min(${referralRewards.releaseAt}) FILTER (WHERE ${referralRewards.state} = 'held')`,
    })
    .from(referralRewards)
    .where(and(eq(referralRewards.beneficiaryId, userId), eq(referralRewards.kind, 'referrer_share')));
  const next = sums?.next ? new Date(sums.next).toISOString() : null;
  return {
    code: me.code,
    linkPath: `/register?ref=${encodeURIComponent(me.code)}`,
    // Everyone who joined counts, whatever became of them.
    joined: statusRows.reduce((sum, r) => sum + r.n, 0),
    qualified: by('qualified'),
    rewarded: by('rewarded'),
    refused: by('refused'),
    heldCents: Number(sums?.held ?? 0),
    paidCents: Number(sums?.paid ?? 0),
    clawedBackCents: Number(sums?.clawed ?? 0),
    nextReleaseAt: next,
    settings,
  };
}

/** The staff's list: both people, the signals, the amounts; filtered by status and a name or email. */
export async function adminList(
  db: DbOrTx,
  query: { page: number; pageSize: number; status?: ReferralStatus; q?: string },
): Promise<{
  referrals: AdminReferral[];
  total: number;
}> {
  const referrer = aliasedTable(users, 'referrer');
  const referred = aliasedTable(users, 'referred');
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(referrals.status, query.status));
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, '\\$&')}%`;
    conditions.push(
      or(ilike(referrer.username, like), ilike(referrer.email, like), ilike(referred.username, like), ilike(referred.email, like))!,
    );
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await db
    .select({ r: referrals, referrerName: referrer.username, referredName: referred.username })
    .from(referrals)
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .innerJoin(referred, eq(referred.id, referrals.referredId))
    .where(where)
    .orderBy(desc(referrals.joinedAt), desc(referrals.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(referrals)
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .innerJoin(referred, eq(referred.id, referrals.referredId))
    .where(where);
  const sums = await sumsFor(
    db,
    rows.map((x) => x.r.id),
  );
  const out: AdminReferral[] = [];
  for (const { r, referrerName, referredName } of rows) {
    // Stored when the first top-up was checked; read now for a referral not checked yet.
    const signals = r.signals ?? (await signalsBetween(db, r.referrerId, r.referredId).catch(() => NO_SIGNALS));
    out.push({
      _id: r.id,
      referrer: { userId: r.referrerId, username: referrerName },
      referred: { userId: r.referredId, username: referredName },
      joinedAt: r.joinedAt.toISOString(),
      status: r.status,
      refusalReason: r.refusalReason,
      refusalNote: r.refusalNote,
      signals,
      ...(sums.get(r.id) ?? { heldCents: 0, paidCents: 0, clawedBackCents: 0 }),
    });
  }
  return { referrals: out, total: total?.n ?? 0 };
}

export async function adminOne(db: DbOrTx, id: string): Promise<AdminReferral> {
  const [row] = await db.select({ id: referrals.id }).from(referrals).where(eq(referrals.id, id));
  if (!row) throw notFound('Referral not found');
  const referrer = aliasedTable(users, 'referrer');
  const referred = aliasedTable(users, 'referred');
  const [r] = await db
    .select({ r: referrals, referrerName: referrer.username, referredName: referred.username })
    .from(referrals)
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .innerJoin(referred, eq(referred.id, referrals.referredId))
    .where(eq(referrals.id, id));
  const sums = await sumsFor(db, [id]);
  return {
    _id: r!.r.id,
    referrer: { userId: r!.r.referrerId, username: r!.referrerName },
    referred: { userId: r!.r.referredId, username: r!.referredName },
    joinedAt: r!.r.joinedAt.toISOString(),
    status: r!.r.status,
    refusalReason: r!.r.refusalReason,
    refusalNote: r!.r.refusalNote,
    signals: r!.r.signals ?? (await signalsBetween(db, r!.r.referrerId, r!.r.referredId)),
    ...(sums.get(id) ?? { heldCents: 0, paidCents: 0, clawedBackCents: 0 }),
  };
}

/** The programme by ISO week (Monday, UTC), the last `weeks` weeks up to this one, oldest first. */
export async function report(db: DbOrTx, now: Date, weeks: number): Promise<ReferralReportWeek[]> {
  const thisWeek = isoWeekStart(now);
  const from = new Date(thisWeek.getTime() - (weeks - 1) * 7 * DAY_MS);
  const to = new Date(thisWeek.getTime() + 7 * DAY_MS);
  const week = (column: SQL) => sql`to_char(date_trunc('week', ${column} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  const q = async (query: SQL) => (await db.execute<Record<string, string>>(query)).rows;
  const joined = await q(sql`
    SELECT ${week(sql`joined_at`)} AS w, count(*)::int AS joined, count(DISTINCT referrer_id)::int AS referrers
    FROM referrals WHERE joined_at >= ${from} AND joined_at < ${to} GROUP BY 1`);
  const qualified = await q(sql`
    SELECT ${week(sql`qualified_at`)} AS w, count(*)::int AS n
    FROM referrals WHERE qualified_at >= ${from} AND qualified_at < ${to} GROUP BY 1`);
  const refused = await q(sql`
    SELECT ${week(sql`refused_at`)} AS w, count(*)::int AS n
    FROM referrals WHERE refused_at >= ${from} AND refused_at < ${to} GROUP BY 1`);
  const paid = await q(sql`
    SELECT ${week(sql`paid_at`)} AS w,
      coalesce(sum(amount_cents) FILTER (WHERE kind = 'referrer_share'), 0)::bigint AS paid,
      coalesce(sum(amount_cents) FILTER (WHERE kind = 'welcome_bonus'), 0)::bigint AS welcome
    FROM referral_rewards WHERE paid_at >= ${from} AND paid_at < ${to} GROUP BY 1`);
  const clawed = await q(sql`
    SELECT ${week(sql`ended_at`)} AS w, coalesce(sum(amount_cents), 0)::bigint AS n
    FROM referral_rewards WHERE state = 'clawed_back' AND kind = 'referrer_share' AND ended_at >= ${from} AND ended_at < ${to} GROUP BY 1`);
  const find = (rows: Record<string, string>[], w: string) => rows.find((r) => r.w === w);
  const out: ReferralReportWeek[] = [];
  for (let i = 0; i < weeks; i++) {
    const w = new Date(from.getTime() + i * 7 * DAY_MS).toISOString().slice(0, 10);
    out.push({
      weekStart: w,
      referrers: Number(find(joined, w)?.referrers ?? 0),
      joined: Number(find(joined, w)?.joined ?? 0),
      qualified: Number(find(qualified, w)?.n ?? 0),
      refused: Number(find(refused, w)?.n ?? 0),
      paidCents: Number(find(paid, w)?.paid ?? 0),
      clawedBackCents: Number(find(clawed, w)?.n ?? 0),
      welcomeBonusCents: Number(find(paid, w)?.welcome ?? 0),
    });
  }
  return out;
}

export async function settingsWithHistory(db: DbOrTx): Promise<{ settings: ReferralSettings; history: ReferralSettingsChange[] }> {
  const rows = await db
    .select({ s: referralSettings, username: users.username })
    .from(referralSettings)
    .leftJoin(users, eq(users.id, referralSettings.changedBy))
    .orderBy(desc(referralSettings.changedAt), desc(referralSettings.id))
    .limit(50);
  return {
    settings: await currentSettings(db),
    history: rows.map(({ s, username }) => ({
      _id: s.id,
      settings: {
        shareBasisPoints: s.shareBasisPoints,
        rewardDays: s.rewardDays,
        capPerReferredCents: s.capPerReferredCents,
        holdDays: s.holdDays,
        dailyCapCents: s.dailyCapCents,
        lifetimeCapCents: s.lifetimeCapCents,
        welcomeBonusCents: s.welcomeBonusCents,
      },
      changedBy: s.changedBy ? { userId: s.changedBy, username: username ?? 'unknown' } : null,
      changedAt: s.changedAt.toISOString(),
    })),
  };
}
