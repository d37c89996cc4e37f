import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import type { ErrorCode } from '#shared/error-codes.js';
import { AppError } from '#server/errors.js';
import { accountTokens, type AccountTokenPurpose, type AccountTokenRow } from './account-tokens.tables.js';
import { users } from '#server/modules/users/users.tables.js';

/** 256 random bits, url-safe (43 characters). */
export function newAccountToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this is stored: a database leak does not hand out working links. */
export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const TOKEN_LIFETIME_SECONDS: Record<AccountTokenPurpose, number> = {
  verify_email: 48 * 3600,
  reset_password: 3600,
  change_email: 24 * 3600,
};

/**
 * Creates a one-time link token for `userId` and answers the token itself (to put in the mail, never
 * stored or logged). `supersede`: older unused tokens of this purpose stop working (a newer reset
 * request makes older links invalid). `securityStamp`: the stamp of the account row the decision to
 * send the link was based on (the one whose password was checked, whose address the link goes to); once
 * the account's stamp moves on, the link stops working (decision 0200). Taking it from that row rather
 * than reading it again here means a change that commits in between voids the link instead of blessing it.
 */
export async function issueAccountToken(
  db: DbOrTx,
  input: { userId: string; purpose: AccountTokenPurpose; email: string; supersede: boolean; securityStamp: number },
): Promise<string> {
  if (input.supersede) {
    await db
      .update(accountTokens)
      .set({ supersededAt: sql`now()` })
      .where(
        and(
          eq(accountTokens.userId, input.userId),
          eq(accountTokens.purpose, input.purpose),
          isNull(accountTokens.usedAt),
          isNull(accountTokens.supersededAt),
        ),
      );
  }
  const token = newAccountToken();
  await db.insert(accountTokens).values({
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashAccountToken(token),
    email: input.email,
    securityStamp: input.securityStamp,
    expiresAt: sql`now() + make_interval(secs => ${TOKEN_LIFETIME_SECONDS[input.purpose]})`,
  });
  return token;
}

export type TokenProblem = 'invalid' | 'expired' | 'used' | 'superseded' | 'voided';

const PROBLEMS: Record<TokenProblem, { code: ErrorCode; message: string }> = {
  invalid: {
    code: 'TOKEN_INVALID',
    message: 'This link is not valid. Check that you opened the whole link from the email, or ask for a new one.',
  },
  expired: { code: 'TOKEN_EXPIRED', message: 'This link has expired. Ask for a new one.' },
  used: { code: 'TOKEN_USED', message: 'This link has already been used. Ask for a new one if you still need it.' },
  superseded: { code: 'TOKEN_SUPERSEDED', message: 'A newer link was sent after this one. Use the link in the most recent email.' },
  voided: {
    code: 'TOKEN_VOIDED',
    message: 'This link is no longer valid because your account changed after it was sent. Ask for a new one.',
  },
};

export function tokenError(problem: TokenProblem): AppError {
  const { code, message } = PROBLEMS[problem];
  return new AppError(code, message, { details: { reason: problem } });
}

/** Links that prove control of the account's current address: they work only while it is the address they went to. */
const BOUND_TO_CURRENT_ADDRESS: ReadonlySet<AccountTokenPurpose> = new Set(['verify_email', 'reset_password']);

/**
 * Spends a token of `purpose` and answers its row; otherwise a 400 saying why (unknown, already used,
 * replaced by a newer link, voided by a change to the account, expired). A token of another purpose
 * counts as unknown. Call it inside the transaction that makes the change the link asks for.
 *
 * The account's row is locked first (FOR UPDATE), so the link is checked against the account as it is
 * when the change is made: a password reset, password change, confirmed change of address or disabling
 * that commits meanwhile raises the security stamp, and this link is then refused (decision 0200). Two
 * concurrent uses of one token: the conditional UPDATE lets one win.
 */
export async function consumeAccountToken(db: DbOrTx, purpose: AccountTokenPurpose, token: string): Promise<AccountTokenRow> {
  const tokenHash = hashAccountToken(token);
  const [found] = await db
    .select({ id: accountTokens.id, userId: accountTokens.userId, purpose: accountTokens.purpose })
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, tokenHash))
    .limit(1);
  if (!found || found.purpose !== purpose) throw tokenError('invalid');
  const [account] = await db
    .select({ email: users.email, disabledAt: users.disabledAt, securityStamp: users.securityStamp })
    .from(users)
    .where(eq(users.id, found.userId))
    .for('update');
  const [spent] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.id, found.id),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.supersededAt),
        sql`${accountTokens.expiresAt} > now()`,
      ),
    )
    .returning();
  if (!spent) {
    const [row] = await db
      .select({ usedAt: accountTokens.usedAt, supersededAt: accountTokens.supersededAt })
      .from(accountTokens)
      .where(eq(accountTokens.id, found.id))
      .limit(1);
    if (!row) throw tokenError('invalid');
    if (row.usedAt) throw tokenError('used');
    if (row.supersededAt) throw tokenError('superseded');
    throw tokenError('expired');
  }
  // Throwing rolls the spend back with the caller's transaction: the link stays refused, never half used.
  if (
    !account ||
    account.disabledAt !== null ||
    account.securityStamp !== spent.securityStamp ||
    (BOUND_TO_CURRENT_ADDRESS.has(purpose) && account.email.toLowerCase() !== spent.email.toLowerCase())
  ) {
    throw tokenError('voided');
  }
  return spent;
}
