import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { knownDevices } from '#server/modules/auth/known-devices.tables.js';
import { sessions } from '#server/modules/auth/sessions.tables.js';
import { mailMessages, mailPreferences } from '#server/modules/mail/mail.tables.js';
import { passkeys, twoFactor, twoFactorRecoveryCodes, type PasskeyRow } from '#server/modules/two-factor/two-factor.tables.js';
import { users, type UserRow } from '#server/modules/users/users.tables.js';
import { iso, json, type ExportEntry } from './export-format.js';

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

/** What account.json reads that the later files (ledger.json, security-log.json, README.txt) repeat. */
export interface AccountFacts {
  user: UserRow;
  tf: { totpEnabledAt: Date | null } | undefined;
  keys: Pick<PasskeyRow, 'name' | 'deviceType' | 'backedUp' | 'createdAt' | 'lastUsedAt'>[];
}

/** One session as sessions.json lists it; the sign-ins of security-log.json are made from these. */
export interface ExportedSession {
  id: string;
  startedAt: string | null;
  lastSeenAt: string | null;
  expiresAt: string | null;
  endedAt: string | null;
  active: boolean;
  rememberMe: boolean;
  ip: string | null;
  userAgent: string | null;
}

/** account.json: the profile, verification, two-factor (no secrets), connections and notification settings. */
export async function* accountFiles(db: DbOrTx, userId: string): AsyncGenerator<ExportEntry, AccountFacts> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new Error('export of a user that does not exist');

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
        locale: user.locale,
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
  return { user, tf, keys };
}

export async function* sessionFiles(db: DbOrTx, userId: string): AsyncGenerator<ExportEntry, ExportedSession[]> {
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
  return sessionDtos;
}

export async function* securityLogFiles(
  db: DbOrTx,
  userId: string,
  { user, tf, keys }: AccountFacts,
  sessionDtos: ExportedSession[],
): AsyncGenerator<ExportEntry> {
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
}
