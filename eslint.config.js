// ESLint flat config: typescript-eslint's recommended rules with type information (projectService
// reads each workspace's tsconfig.json), plus the two promise rules that catch a lost write
// (`no-floating-promises`, `no-misused-promises`). Recommended, not strict: findings should be defects.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The API's and processors' main threads use the engine's core only. */
const ANNUITIES_CORE_ONLY = {
  name: '@portal/annuities',
  allowTypeImports: true,
  message: 'Import @portal/annuities/core: the full entry loads exceljs and SheetJS (~33 MB) into the process.',
};

// The API's layers (decision 165): cookies, headers and req/res stay in routers and http/; modules meet
// through each other's index.ts. Regexes, because a gitignore pattern's `*` also matches `..`.
const NO_HTTP_LAYER = {
  regex: '(^|/)http/',
  message: 'Services take plain arguments: the HTTP layer (http/) is for routers. Errors, the actor and uploads are in apps/api/src/domain.',
};
const NO_EXPRESS = ['express', 'cookie'].map((name) => ({
  name,
  message: 'Services take plain arguments: requests, responses and cookies stay in the router and http/.',
}));
const OTHER_MODULE_INTERNALS = {
  // From modules/<a>/<file>.ts: `../<b>/<anything but index.ts>`.
  regex: '^\\.\\./(?!\\.\\./)[^/]+/(?!index\\.ts$)',
  message: "Another module is reached through its public entry: import '../<module>/index.ts'.",
};
const MODULE_FROM_OUTSIDE = {
  regex: '(^|/)modules/[^/]+/(?!index\\.ts$)',
  message: "A module is reached through its public entry: import '.../modules/<module>/index.ts'.",
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'data/**', 'test-results/**', 'bench/out/**', 'e2e/artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Root files that belong to no workspace's tsconfig.json.
          allowDefaultProject: ['*.ts', '*.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `void promise` is not an exemption: a dropped promise in a failure path is a lost write.
      // A deliberate fire-and-forget handles its rejection (`.catch(log)`) and says why.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          ignoreVoid: false,
          // Calls that never reject: TanStack Query keeps a refetch's error in the query's state and
          // `prefetchQuery` swallows it; React Router's navigation reports errors to its error boundary.
          allowForKnownSafeCalls: [
            { from: 'package', package: '@tanstack/query-core', name: ['invalidateQueries', 'prefetchQuery'] },
            { from: 'package', package: 'react-router', name: 'NavigateFunction' },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      // React Router's loaders `throw redirect(...)`, a Response, by design.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'lib', name: 'Response' }] }],
      // Ports and helpers are plain objects of closures built by factories, not `this`-bound methods.
      '@typescript-eslint/unbound-method': 'off',
      // Sanitisers and validators match control characters on purpose (mail headers, LEDES, XML).
      'no-control-regex': 'off',
      // An async function without await is how a port's in-memory driver satisfies a Promise API.
      '@typescript-eslint/require-await': 'off',
      // `_`-prefixed names are deliberately unused (positional parameters, destructuring to omit a key).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON bodies and library internals as `any`; their assertions check the shape.
    files: ['**/test/**', '**/test-support/**', '**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // Plain JavaScript (scripts, CLIs' bin shims, tool configs) has no types to check against.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two classic hook rules; the React Compiler rules of `recommended` are for code built with it.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The first load of the web (the frame, its libraries, the login screen) must not build the zod
    // schemas: values come from `@portal/contracts/constants`, types from `@portal/contracts`.
    files: ['apps/web/src/main.tsx', 'apps/web/src/{app,lib,components}/**/*.{ts,tsx}', 'apps/web/src/features/auth/LoginPage.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@portal/contracts',
              allowTypeImports: true,
              message: 'First-load code: import values from @portal/contracts/constants (no zod); types may come from @portal/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The API and the job processors run on the main thread of the API (embedded) and of the workers:
    // they compute and validate with the engine's core; only the engine thread reads spreadsheets.
    files: ['apps/api/src/**/*.ts', 'packages/jobs/src/**/*.ts'],
    // The worker threads' own modules (the receipt thread reads the manifest with the spreadsheet guard).
    ignores: ['packages/jobs/src/annuities/engine-worker.ts', 'packages/jobs/src/patents/workbook-worker.ts', 'packages/jobs/src/receipts/manifest.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [ANNUITIES_CORE_ONLY] }] },
  },
  // The API's layers (decision 165). A rule's options replace those of an earlier block, so each block
  // below restates the engine's restriction.
  {
    // Outside the modules (composition root, HTTP layer, domain, security): a module is reached through its index.ts.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/modules/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [ANNUITIES_CORE_ONLY], patterns: [MODULE_FROM_OUTSIDE] }] },
  },
  {
    // The module-neutral layers below the services know nothing of HTTP.
    files: ['apps/api/src/{domain,security}/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [ANNUITIES_CORE_ONLY, ...NO_EXPRESS], patterns: [NO_HTTP_LAYER, MODULE_FROM_OUTSIDE] }] },
  },
  {
    // A module's routes and access policy are its HTTP edge: they may use http/ and express, not another module's internals.
    files: ['apps/api/src/modules/*/router.ts', 'apps/api/src/modules/*/policy.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [ANNUITIES_CORE_ONLY], patterns: [OTHER_MODULE_INTERNALS] }] },
  },
  {
    // Services and every other module file take plain arguments: no http/, no express, no other module's internals.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['apps/api/src/modules/*/router.ts', 'apps/api/src/modules/*/policy.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [ANNUITIES_CORE_ONLY, ...NO_EXPRESS], patterns: [NO_HTTP_LAYER, OTHER_MODULE_INTERNALS] },
      ],
    },
  },
  {
    // Processes reach Redis and BullMQ through @portal/queue (its `redis` entry for a bare connection).
    files: ['workers/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['bullmq', 'ioredis'].map((name) => ({
            name,
            message: 'Use @portal/queue (or @portal/queue/redis): one place builds connections and queues with the shared prefix and options.',
          })),
        },
      ],
    },
  },
);
