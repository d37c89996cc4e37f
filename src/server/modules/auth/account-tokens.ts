import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import type { ErrorCode } from '#shared/error-codes.js';
import { AppError } from '#server/errors.js';
import { accountTokens, type AccountTokenPurpose, type AccountTokenRow } from '#server/modules/mail/mail.tables.js';

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
 * request makes older links invalid).
 */
export async function issueAccountToken(
  db: DbOrTx,
  input: { userId: string; purpose: AccountTokenPurpose; email: string; supersede: boolean },
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
    expiresAt: sql`now() + make_interval(secs => ${TOKEN_LIFETIME_SECONDS[input.purpose]})`,
  });
  return token;
}

export type TokenProblem = 'invalid' | 'expired' | 'used' | 'superseded';

const PROBLEMS: Record<TokenProblem, { code: ErrorCode; message: string }> = {
  invalid: { code: 'TOKEN_INVALID', message: 'This link is not valid. Check that you opened the whole link from the email, or ask for a new one.' },
  expired: { code: 'TOKEN_EXPIRED', message: 'This link has expired. Ask for a new one.' },
  used: { code: 'TOKEN_USED', message: 'This link has already been used. Ask for a new one if you still need it.' },
  superseded: { code: 'TOKEN_SUPERSEDED', message: 'A newer link was sent after this one. Use the link in the most recent email.' },
};

export function tokenError(problem: TokenProblem): AppError {
  const { code, message } = PROBLEMS[problem];
  return new AppError(400, code, message, { details: { reason: problem } });
}

/**
 * Spends a token of `purpose` in one conditional UPDATE (two concurrent uses: one wins) and answers its
 * row; otherwise a 400 saying why (unknown, expired, already used, replaced by a newer link). A token
 * of another purpose counts as unknown.
 */
export async function consumeAccountToken(db: DbOrTx, purpose: AccountTokenPurpose, token: string): Promise<AccountTokenRow> {
  const tokenHash = hashAccountToken(token);
  const [spent] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.supersededAt),
        sql`${accountTokens.expiresAt} > now()`,
      ),
    )
    .returning();
  if (spent) return spent;
  const [row] = await db
    .select({ usedAt: accountTokens.usedAt, supersededAt: accountTokens.supersededAt, purpose: accountTokens.purpose })
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row || row.purpose !== purpose) throw tokenError('invalid');
  if (row.usedAt) throw tokenError('used');
  if (row.supersededAt) throw tokenError('superseded');
  throw tokenError('expired');
}
