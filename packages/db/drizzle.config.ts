import { defineConfig } from 'drizzle-kit';

// Only used to generate SQL migrations from src/schema.ts; the app applies them at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.ts',
  out: './migrations',
});
