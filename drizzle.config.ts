import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module's tables, and the tables of the provider sandboxes (docs/decisions/0222).
  schema: ['./src/server/modules/**/*.tables.ts', './src/server/sandbox/*/*.tables.ts'],
  out: './src/server/db/migrations',
});
