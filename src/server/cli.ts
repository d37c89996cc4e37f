import { parseArgs } from 'node:util';
import { ROLES, type Role } from '#shared/constants.js';
import { passwordSchema, usernameSchema, emailSchema } from '#shared/schemas/auth.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { hashPassword, isCommonPassword } from './modules/auth/passwords.js';
import { createUser, findUserByLogin, setRole } from './modules/users/users.service.js';
import { AppError } from './errors.js';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-user --username NAME --password PW [--email EMAIL] [--role user|support|admin]
      Creates an account (staff accounts included). With --update-role, changes the role of an
      existing account instead of failing.
`;

/** What a new staff account does first while staff two-factor is required (the default). */
const STAFF_TWO_FACTOR_STEPS = `Staff accounts need two-factor sign-in before the console opens to them (REQUIRE_STAFF_2FA=1, the default):
  1. Sign in at /login with this username and password.
  2. Open Settings, then "Two-factor sign-in": set up an authenticator app (scan the QR code, enter a code,
     keep the recovery codes), or add a passkey.
  3. Open the console at /dashboard/staff. Sensitive staff actions ask for a code again.`;

async function createUserCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'user' },
      'update-role': { type: 'boolean', default: false },
    },
  });
  const username = usernameSchema.safeParse(values.username);
  if (!username.success) throw new Error(`--username: ${username.error.issues[0]?.message}`);
  const password = passwordSchema.safeParse(values.password);
  if (!password.success) throw new Error(`--password: ${password.error.issues[0]?.message}`);
  // Staff accounts above all must not be one guess away (docs/product.md#accounts applies here too).
  if (isCommonPassword(password.data)) throw new Error('--password: This password is too common. Choose one that is harder to guess.');
  const email = emailSchema.safeParse(values.email ?? `${username.data.toLowerCase()}@users.olympus.local`);
  if (!email.success) throw new Error(`--email: ${email.error.issues[0]?.message}`);
  if (!ROLES.includes(values.role as Role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
  const role = values.role as Role;

  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
    poolSize: 2,
  });
  try {
    await runMigrations(database.session.pool);
    const existing = await findUserByLogin(database.db, username.data);
    if (existing) {
      if (!values['update-role']) throw new Error(`User ${existing.username} already exists (use --update-role to change its role)`);
      await setRole(database.db, existing.id, role);
      console.log(`Updated ${existing.username}: role ${role}`);
      if (role !== 'user' && config.raw.REQUIRE_STAFF_2FA === '1') console.log(STAFF_TWO_FACTOR_STEPS);
      return;
    }
    const user = await createUser(database.db, {
      username: username.data,
      email: email.data,
      passwordHash: await hashPassword(password.data),
      role,
    });
    console.log(`Created ${user.username} (${user.id}) with role ${user.role}`);
    if (role !== 'user' && config.raw.REQUIRE_STAFF_2FA === '1') console.log(STAFF_TWO_FACTOR_STEPS);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'create-user':
      await createUserCommand(rest);
      return;
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return;
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof AppError || err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
