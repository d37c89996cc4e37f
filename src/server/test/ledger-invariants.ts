import { sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';

type Row = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);

/**
 * The ledger's invariants (docs/product.md#credits, docs/decisions/0120), the same checks as the
 * reliability suite's `ledgerViolations` (test/reliability/lib.mjs) plus those of outstanding amounts
 * and payments. Answers the list of violations (empty when all hold):
 * - each user's balance equals the sum of their entries and the last entry's balance-after;
 * - no balance is negative, and an account that owes credits has none left to spend;
 * - no reference is used twice;
 * - each payment was credited at most its credits, and what it still holds is what it credited minus
 *   what its reversal took back or left owed;
 * - what settlement entries paid equals what the debts went down by.
 */
export async function ledgerViolations(db: DbOrTx): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (query: ReturnType<typeof sql>) => (await db.execute(query)).rows as Row[];

  for (const row of await rows(sql`
    SELECT u.id, u.credits_cents AS balance, coalesce(sum(e.amount_cents), 0)::bigint AS total,
           (SELECT balance_after_cents FROM credit_ledger_entries l WHERE l.user_id = u.id
             ORDER BY l.created_at DESC, l.balance_after_cents DESC LIMIT 1) AS last_after,
           (SELECT coalesce(sum(outstanding_cents), 0) FROM credit_debts d WHERE d.user_id = u.id) AS owed,
           (SELECT coalesce(sum(amount_cents - outstanding_cents), 0) FROM credit_debts d WHERE d.user_id = u.id) AS debts_paid,
           (SELECT coalesce(-sum(amount_cents), 0) FROM credit_ledger_entries s WHERE s.user_id = u.id AND s.kind = 'settlement') AS settled
    FROM users u LEFT JOIN credit_ledger_entries e ON e.user_id = u.id
    GROUP BY u.id, u.credits_cents`)) {
    const balance = n(row.balance);
    if (balance !== n(row.total)) problems.push(`user ${row.id}: balance ${balance} != sum of entries ${row.total}`);
    if (balance < 0) problems.push(`user ${row.id}: negative balance ${balance}`);
    if (row.last_after !== null && n(row.last_after) !== balance)
      problems.push(`user ${row.id}: last balance-after ${row.last_after} != balance ${balance}`);
    if (n(row.owed) < 0) problems.push(`user ${row.id}: negative outstanding amount ${row.owed}`);
    if (n(row.owed) > 0 && balance > 0) problems.push(`user ${row.id}: owes ${row.owed} yet holds ${balance}`);
    if (n(row.debts_paid) !== n(row.settled))
      problems.push(`user ${row.id}: debts went down by ${row.debts_paid}, settlements paid ${row.settled}`);
  }
  for (const row of await rows(
    sql`SELECT reference, count(*)::int AS n FROM credit_ledger_entries GROUP BY reference HAVING count(*) > 1`,
  )) {
    problems.push(`reference ${row.reference} used ${row.n} times`);
  }
  for (const row of await rows(sql`
    SELECT p.id, p.status, p.credits_cents, p.credited_cents,
      (SELECT coalesce(sum(amount_cents), 0) FROM credit_ledger_entries e
        WHERE e.reference = 'payment:' || p.id::text OR e.reference LIKE 'payment:' || p.id::text || ':to:%') AS credited,
      (SELECT coalesce(-sum(amount_cents), 0) FROM credit_ledger_entries e
        WHERE e.kind = 'refund' AND e.reference LIKE 'payment:' || p.id::text || ':%') AS taken_back,
      (SELECT coalesce(sum(amount_cents), 0) FROM credit_debts d WHERE d.payment_id = p.id) AS owed
    FROM payments p`)) {
    const credited = n(row.credited);
    if (credited > n(row.credits_cents)) problems.push(`payment ${row.id}: credited ${credited}, more than its ${row.credits_cents}`);
    if (credited - n(row.taken_back) - n(row.owed) !== n(row.credited_cents)) {
      problems.push(
        `payment ${row.id} (${row.status}): credited ${credited} - taken back ${row.taken_back} - owed ${row.owed} != ${row.credited_cents} held`,
      );
    }
  }
  return problems;
}
