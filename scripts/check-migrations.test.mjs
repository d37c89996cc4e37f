import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  RELEASES_FILE,
  checkMigrations,
  classify,
  declaredTables,
  migrationsAfter,
  splitStatements,
  tablesAtCommit,
} from './check-migrations.mjs';

// Three releases in production, oldest first; the last is the one the next release rolls over.
const releases = [
  { name: 'r1', commit: 'aaaaaaa', lastMigration: '0010_one' },
  { name: 'r2', commit: 'bbbbbbb', lastMigration: '0020_two' },
  { name: 'r3', commit: 'ccccccc', lastMigration: '0030_three' },
];
// What r3's *.tables.ts declare.
const previousTables = declaredTables([
  `export const users = pgTable('users', {
     id: uuid('id').primaryKey(),
     email: text('email').notNull(),
     creditsCents: bigint('credits_cents', { mode: 'number' }).notNull().default(0),
   }, (t) => [uniqueIndex('users_email_key').on(t.email), check('users_credits_non_negative', sql\`\${t.creditsCents} >= 0\`)]);`,
  `export const adServes = pgTable('ad_serves', { adId: uuid('ad_id').notNull() });`,
]);

/** The refusals for one migration of the next release, as `what` texts. */
const refusals = (sql) => checkMigrations({ migrations: [{ name: '0031_next.sql', sql }], releases, previousTables }).map((p) => p.problem);

describe('check-migrations: what the next release may do to the schema the previous one reads', () => {
  it('lets additive migrations through: new tables, nullable columns, columns with defaults, indexes, constraints on new tables', () => {
    expect(
      refusals(`
        CREATE TABLE IF NOT EXISTS "credit_requests" ("id" uuid PRIMARY KEY, "user_id" uuid NOT NULL, "note" text);--> statement-breakpoint
        ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_user_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id");--> statement-breakpoint
        ALTER TABLE "users" ADD COLUMN "nickname" text;--> statement-breakpoint
        ALTER TABLE "users" ADD COLUMN "tier" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
        ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
        CREATE INDEX IF NOT EXISTS "users_nickname_idx" ON "users" USING btree ("nickname");
        -- A column this release adds may still change shape before anyone reads it.
        ALTER TABLE "users" ALTER COLUMN "nickname" SET NOT NULL;
        ALTER TABLE "credit_requests" RENAME COLUMN "note" TO "reason";
        DROP TABLE "credit_requests";`),
    ).toEqual([]);
  });

  it('refuses each destructive change of an existing object without a contract step', () => {
    const cases = {
      'DROP TABLE "ad_serves"': 'DROP TABLE of ad_serves',
      'DROP TABLE IF EXISTS public.ad_serves CASCADE': 'DROP TABLE of ad_serves',
      'ALTER TABLE "users" DROP COLUMN "email"': 'DROP COLUMN of users.email',
      'ALTER TABLE users DROP COLUMN IF EXISTS email': 'DROP COLUMN of users.email',
      'ALTER TABLE "users" RENAME COLUMN "email" TO "mail"': 'RENAME COLUMN of users.email',
      'ALTER TABLE "users" RENAME TO "accounts"': 'RENAME TABLE of users',
      'ALTER TABLE "users" ALTER COLUMN "credits_cents" SET DATA TYPE numeric': 'ALTER COLUMN TYPE of users.credits_cents',
      'ALTER TABLE "users" ALTER COLUMN "credits_cents" TYPE integer USING credits_cents::integer':
        'ALTER COLUMN TYPE of users.credits_cents',
      'ALTER TABLE "users" ALTER COLUMN "email" SET NOT NULL': 'SET NOT NULL of users.email',
      'ALTER TABLE "users" ALTER COLUMN "credits_cents" DROP DEFAULT': 'DROP DEFAULT of users.credits_cents',
      'ALTER TABLE "users" DROP CONSTRAINT "users_credits_non_negative"': 'DROP CONSTRAINT of users.users_credits_non_negative',
      'DROP INDEX "users_email_key"': 'DROP INDEX of users_email_key',
      'DROP TRIGGER "users_notify" ON "users"': 'DROP TRIGGER of users.users_notify',
      'DROP FUNCTION olympus_notify_users()': 'DROP FUNCTION of olympus_notify_users',
      'TRUNCATE "ad_serves"': 'TRUNCATE of ad_serves',
      'ALTER INDEX "users_email_key" RENAME TO "users_mail_key"': 'ALTER INDEX RENAME of users_email_key',
    };
    for (const [sql, what] of Object.entries(cases)) {
      const found = refusals(`${sql};`);
      expect(found, sql).toHaveLength(1);
      expect(found[0], sql).toContain(what);
      expect(found[0], sql).toContain('which existed before this release');
    }
  });

  it('refuses every destructive action of a multi-action ALTER TABLE, and each table of a multi-table DROP', () => {
    expect(
      refusals('ALTER TABLE "users" ADD COLUMN "x" text, DROP COLUMN "email", ALTER COLUMN "credits_cents" TYPE numeric(20, 2);'),
    ).toHaveLength(2);
    expect(refusals('DROP TABLE "ad_serves", "users";')).toHaveLength(2);
  });

  it('refuses a NOT NULL column without a default on an existing table: the previous release inserts rows without it', () => {
    expect(refusals('ALTER TABLE "users" ADD COLUMN "tier" integer NOT NULL;')[0]).toContain('NOT NULL without a default');
    expect(refusals('-- contract: users.tier unread since r1\nALTER TABLE "users" ADD COLUMN "tier" integer NOT NULL;')).toHaveLength(1);
  });

  it('accepts a contract step naming a release older than the previous one, for an object the previous release no longer declares', () => {
    expect(
      refusals(`
        -- contract: ad_campaign_caps unread since r2
        DROP TABLE "ad_campaign_caps";--> statement-breakpoint
        -- contract: users.legacy_flag unread since r1
        ALTER TABLE "users" DROP COLUMN "legacy_flag";`),
    ).toEqual([]);
  });

  it('refuses a contract step that names the previous release, an unknown release, another object, or an object the previous release declares', () => {
    expect(refusals('-- contract: ad_campaign_caps unread since r3\nDROP TABLE "ad_campaign_caps";')[0]).toContain(
      '"r3" is the previous release',
    );
    expect(refusals('-- contract: ad_campaign_caps unread since r9\nDROP TABLE "ad_campaign_caps";')[0]).toContain('not in');
    expect(refusals('-- contract: users.legacy_flag unread since r1\nDROP TABLE "ad_campaign_caps";')[0]).toContain(
      'DROP TABLE of ad_campaign_caps',
    );
    expect(refusals('-- contract: ad_serves unread since r1\nDROP TABLE "ad_serves";')[0]).toContain('still declares ad_serves');
    expect(refusals('-- contract: users.email unread since r1\nALTER TABLE "users" DROP COLUMN "email";')[0]).toContain(
      'still declares users.email',
    );
  });

  it('binds a marker to the next statement only', () => {
    expect(
      refusals(`
        -- contract: ad_campaign_caps unread since r1
        DROP TABLE "ad_campaign_caps";
        DROP TABLE "ad_campaign_caps_old";`),
    ).toHaveLength(1);
  });

  it('lets a CHECK be replaced under its own name in one migration (widened), but not dropped alone', () => {
    const widened = `ALTER TABLE "users" DROP CONSTRAINT "users_credits_non_negative";--> statement-breakpoint
      ALTER TABLE "users" ADD CONSTRAINT "users_credits_non_negative" CHECK ("users"."credits_cents" >= -100);`;
    expect(refusals(widened)).toEqual([]);
  });

  it('reads statements past strings, quoted names, dollar-quoted bodies and comments', () => {
    const statements = splitStatements(`
      CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN DROP TABLE x; RETURN NEW; END $$ LANGUAGE plpgsql;
      INSERT INTO t VALUES ('a; DROP TABLE users;', "b;c"); /* DROP TABLE users; */ -- DROP TABLE users;
      SELECT 1`);
    expect(statements.map((s) => s.sql)).toEqual([
      'CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN DROP TABLE x; RETURN NEW; END $$ LANGUAGE plpgsql',
      `INSERT INTO t VALUES ('a; DROP TABLE users;', "b;c")`,
      'SELECT 1',
    ]);
    expect(statements.flatMap((s) => classify(s.sql).destroys)).toEqual([]);
  });

  it('finds the columns, indexes and constraints Drizzle tables declare', () => {
    expect([...(previousTables.get('users') ?? [])].sort()).toEqual([
      'credits_cents',
      'email',
      'id',
      'users_credits_non_negative',
      'users_email_key',
    ]);
  });
});

describe('check-migrations on this repository', () => {
  const { releases: record } = JSON.parse(readFileSync(RELEASES_FILE, 'utf8'));

  it('passes the migrations of the next release, and would have refused 0035 (it dropped two tables the release before it read)', () => {
    const previous = record.at(-1);
    const sources = tablesAtCommit(previous.commit);
    const tables = declaredTables(sources ?? []);
    expect(checkMigrations({ migrations: migrationsAfter(previous.lastMigration), releases: record, previousTables: tables })).toEqual([]);

    const before = [{ name: 'before', commit: 'none', lastMigration: '0034_house_campaigns' }];
    const refused = checkMigrations({ migrations: migrationsAfter('0034_house_campaigns'), releases: before, previousTables: tables });
    expect(refused.map((p) => p.problem.split(',')[0])).toEqual(['DROP TABLE of ad_serves', 'DROP TABLE of ad_campaign_caps']);
  });

  it('reads the previous release tables at its commit when this clone has it', () => {
    const sources = tablesAtCommit(record.at(-1).commit);
    if (!sources) return; // a shallow clone: the script falls back to the current tables and says so
    const tables = declaredTables(sources);
    expect(tables.get('users')?.has('credits_cents')).toBe(true);
    // 0035 removed them, so the release that ran it no longer declares them.
    expect(tables.has('ad_serves')).toBe(false);
  });
});
