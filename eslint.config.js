import js from '@eslint/js';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVER_CODE = { group: ['**/server/**'], message: 'The web app must not import server code.' };
const SERVER_ALIAS = { regex: '^#server/', message: 'The web app must not import server code.' };
/**
 * The web writes (and reads) the server in one way: query and mutation hooks in features/<name>/api/,
 * which screens use for isPending and error (docs/decisions/0225-web-writes-and-error-codes.md). Only
 * those api/ folders and src/web/lib call the API client; everything else may still use its ApiError,
 * errorMessage and the rest.
 */
const API_CALLS_MESSAGE =
  'Call the server through a query or mutation hook in features/<name>/api/ (docs/decisions/0225), not the API client.';
const API_CALLS = [{ group: ['**/lib/api-client'], importNames: ['api', 'refreshAccessToken'], message: API_CALLS_MESSAGE }];
/**
 * The convention of a feature's api/ folder: what its screens import from it are hooks (`useX`), query
 * options (`xQueryOptions`, to prefetch or fetch once) and query keys (`xKeys`), besides constants and
 * types (capitalised). The plain functions that call the server are for the folder's own hooks, so a
 * handler never awaits one with a busy flag around it (docs/decisions/0225). The pure helpers that call
 * nothing are named here; the few deliberate callers outside a hook are listed in the config below.
 */
const PLAIN_API_FUNCTIONS = [
  {
    regex: '^\\.{1,2}/api/',
    importNamePattern: '^(?!use[A-Z]|[A-Z]|.*(QueryOptions|Keys)$|(quoteTimeLeft|requesterBase)$)',
    message:
      "Use the api/ folder's hooks (useX), query options and keys here, not its plain call functions: wrap the call in a mutation or query hook there (docs/decisions/0225).",
  },
];

/** A feature uses another only through its public entry, and never the app (docs/decisions/0094). */
const FEATURE_BOUNDARIES = [
  SERVER_CODE,
  SERVER_ALIAS,
  {
    regex: '^#web/features/[^/]+/(api|components|hooks|lib|stores|pages|content)/',
    message: 'Import another feature through its public entry (features/<name>/index.ts), not its internals.',
  },
  { regex: '^#web/app/', message: 'Features do not import the app: it composes them.' },
  {
    regex: '^(\\.\\./){1,3}[^./][^/]*/(api|components|hooks|lib|stores|pages|content)/',
    message: 'Import another feature through its public entry (features/<name>/index.ts), not its internals.',
  },
  { group: ['**/app/*', '**/app/**'], message: 'Features do not import the app: it composes them.' },
];

/** Shared web code (components/, lib/, stores/) depends on no feature and not on the app. */
const SHARED_WEB_BOUNDARIES = [
  SERVER_CODE,
  SERVER_ALIAS,
  { group: ['**/features/**', '**/app/**'], message: 'Shared web code depends on no feature and not on the app.' },
  { regex: '^#web/(features|app)/', message: 'Shared web code depends on no feature and not on the app.' },
];

/**
 * Imports may climb at most two folders (`../../x`); anything further goes through an alias of
 * package.json `imports` (#server/..., #shared/..., #web/...). `node scripts/use-import-aliases.mjs`
 * rewrites them (docs/decisions/0150-import-aliases.md). Checks every place a path names a module:
 * import/export declarations, import(), typeof import(), require() and vi.mock()-style calls.
 */
const MAX_CLIMBS = 2;
const VI_PATH_METHODS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);
const noDeepRelativeImports = {
  meta: {
    type: 'suggestion',
    docs: { description: `Forbid relative module paths that climb more than ${MAX_CLIMBS} folders.` },
    messages: {
      climbs:
        "'{{path}}' climbs {{count}} folders: import it through its alias (#server/…, #shared/…, #web/…); " +
        '`node scripts/use-import-aliases.mjs` rewrites it.',
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const count = node.value.split(/[/\\]/).filter((segment) => segment === '..').length;
      if (count > MAX_CLIMBS) context.report({ node, messageId: 'climbs', data: { path: node.value, count } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.literal ?? node.argument),
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression(node) {
        const { callee } = node;
        const isRequire = callee.type === 'Identifier' && callee.name === 'require';
        const isVi =
          callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'vi' &&
          callee.property.type === 'Identifier' &&
          VI_PATH_METHODS.has(callee.property.name);
        if (isRequire || isVi) check(node.arguments[0]);
      },
    };
  },
};

/**
 * Text a person reads is a message of the catalogues (docs/decisions/0326-one-catalogue-per-language.md,
 * docs/translating.md). `lingui/no-unlocalized-strings` reports every string literal of a file, the
 * field names, query keys and paths passed to functions included (`fieldProps('username')`), which in
 * this code are data, not text; `olympus/no-unlocalized-jsx-text` runs that rule and keeps what it finds
 * in JSX only: text between tags, a string given as a child (`{'Loading…'}`, `{busy ? 'Saving…' : null}`)
 * and a string given to an attribute or prop that is not in NON_TEXT_PROPS. A native element's title and
 * aria-description, which the plugin lets through, are reported as well.
 */
const NON_TEXT_PROPS = [
  'className',
  'to',
  'href',
  'src',
  'type',
  'id',
  'htmlFor',
  'key',
  'role',
  'name',
  'value',
  'autoComplete',
  'inputMode',
  'enterKeyHint',
  'pattern',
  'accept',
  'rel',
  'target',
  'method',
  'encType',
  'dir',
  'lang',
  'width',
  'height',
  'min',
  'max',
  'step',
  'form',
  'loading',
  'decoding',
  'referrerPolicy',
  'sandbox',
  'style',
  'as',
  'variant',
  'tone',
  'size',
  'kind',
  'status',
  'level',
  'icon',
  'mode',
  'align',
  'placement',
  'end',
  'path',
  'element',
  'testId',
  'siteKey',
  'queryKey',
  'autoCapitalize',
  'autoCorrect',
  'spellCheck',
  'list',
  'viewer',
  'reader',
  'provider',
  'component',
  'action',
  'kind',
  'state',
  'tone',
  'status',
  'size',
  'variant',
  'scope',
  'sizes',
  'media',
  'crossOrigin',
  'referrerPolicy',
  'sandbox',
  'allow',
];
const NON_TEXT_PROP_PATTERNS = [
  '^data-',
  '^aria-(controls|describedby|labelledby|owns|activedescendant|live|relevant|current|haspopup|expanded|hidden|sort|autocomplete|orientation)$',
  '^on[A-Z]',
  '(Id|Ids|Class|ClassName|Name|Key|Path|Href|Url|Type|Mode|Variant|Tone|Size|Kind|Status|Icon)$',
];
/**
 * Text that reads the same in every language: the product's name, currency and coin codes (USD, BTC),
 * the SLA abbreviation, and symbols alone (a dash for nothing, ≈, ×, arrows, separators).
 */
const SAME_IN_EVERY_LANGUAGE = [
  '^Olympus$',
  '^\\s*(USD|EUR|SLA|BTC|ETH|API|URL|PDF|CSV|ZIP|JSON|HMAC|UTC)\\s*$',
  '^[\\s—–\\-≈×·•…/|←→↑↓+%#:()]*$',
  '^https?://\\S*$',
  '^/[\\w\\-/.]*$',
];
const TEXT_ATTRIBUTES_OF_ELEMENTS = new Set(['title', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'aria-placeholder']);

const linguiStrings = lingui.rules['no-unlocalized-strings'];
const HAS_LETTER = /\p{L}/u;

/** Whether a node reported by the plugin is text of JSX: text between tags, or a string reaching a JSX expression or attribute value. */
function inJsx(node) {
  if (node.type === 'JSXText') return true;
  let current = node;
  let parent = node.parent;
  while (parent && ['ConditionalExpression', 'LogicalExpression', 'TSAsExpression', 'ArrayExpression'].includes(parent.type)) {
    if (parent.type === 'ConditionalExpression' && parent.test === current) return false;
    current = parent;
    parent = parent.parent;
  }
  return parent?.type === 'JSXExpressionContainer' || parent?.type === 'JSXAttribute';
}

const noUnlocalizedJsxText = {
  meta: { ...linguiStrings.meta, docs: { description: 'Text in JSX is a message: t`…`, msg`…` or plural().' } },
  defaultOptions: linguiStrings.defaultOptions,
  create(context) {
    const filtered = Object.create(context, {
      report: {
        value: (descriptor) => {
          if (inJsx(descriptor.node)) context.report(descriptor);
        },
      },
    });
    const visitor = linguiStrings.create(filtered);
    return {
      ...visitor,
      JSXAttribute(node) {
        const name = typeof node.name.name === 'string' ? node.name.name : null;
        const element = node.parent.name;
        const native = element.type === 'JSXIdentifier' && /^[a-z]/.test(element.name);
        const value = node.value?.type === 'JSXExpressionContainer' ? node.value.expression : node.value;
        if (native && TEXT_ATTRIBUTES_OF_ELEMENTS.has(name) && value?.type === 'Literal' && HAS_LETTER.test(String(value.value))) {
          context.report({ node: value, messageId: 'forAttribute' });
        }
      },
    };
  },
};

/**
 * Folders (and, where a folder is partly translated, files) whose text is not yet wrapped in messages:
 * the rule skips them while their screens are being translated (docs/translating.md#checks).
 */
const NOT_YET_TRANSLATED = [
  // Empty: every folder of src/web is translated. List a folder (or file) here only while its screens are
  // being translated, and remove it once `npx eslint <folder>` reports nothing.
];

/** The project's own rules, one plugin object (ESLint takes a plugin under one name once). */
const OLYMPUS = { rules: { 'no-deep-relative-imports': noDeepRelativeImports, 'no-unlocalized-jsx-text': noUnlocalizedJsxText } };

/**
 * Server modules (docs/decisions/0100-server-layout.md, 0220-module-shape.md). A module reaches another
 * through its services, tables and helpers, never through its routes or module wiring: app.ts composes
 * those, on the core that src/server/http builds. So module code imports neither app.ts, server.ts nor
 * src/server/http, and nothing from src/server/sandbox (the sandboxes stand in for the providers and
 * sit above the modules). context.ts is imported for its types only: the core builds the context. A
 * module's routes may sit in a sub-folder of it (support/tickets/tickets.routes.ts, decision 0323).
 */
const MODULE_IMPORTS = [
  {
    group: ['../**/*.routes.js', '../**/*.module.js', '**/app.js', '**/server.js', '**/http/*', '**/sandbox/**'],
    message: "Use another module's service or tables file; routes, module wiring, the HTTP core and the sandboxes are composed in app.ts.",
  },
  {
    regex: '^#server/(modules/(?:[^/]+/)+[^/]+\\.(routes|module)\\.js|app\\.js|server\\.js|http/.*|sandbox/.*)$',
    message: "Use another module's service or tables file; routes, module wiring, the HTTP core and the sandboxes are composed in app.ts.",
  },
  { regex: '^#web/', message: 'Server code must not import web code.' },
];
/**
 * A routes file declares routes and calls services (docs/decisions/0220): no query builder, no tables.
 * Anything that reads or writes the database goes in a service.
 */
const ROUTES_IMPORTS = [
  { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Routes call services: move the query into a service of the module.' },
  { group: ['**/*.tables.js', '**/*.tables'], message: 'Routes call services: move the query into a service of the module.' },
];

function serverModuleRules() {
  return [
    {
      files: ['src/server/modules/**/*.ts'],
      // Tests build the whole app on purpose.
      ignores: ['src/server/modules/**/*.test.ts'],
      rules: {
        'no-restricted-imports': ['error', { patterns: MODULE_IMPORTS }],
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/context.js', '#server/context.js'],
                allowTypeImports: true,
                message: 'Modules take the context they are given: import its types only (`import type`).',
              },
            ],
          },
        ],
      },
    },
    {
      // Routes files anywhere on the server (modules and sandboxes).
      files: ['src/server/**/*.routes.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [...ROUTES_IMPORTS, { regex: '^#web/', message: 'Server code must not import web code.' }] },
        ],
      },
    },
    {
      files: ['src/server/modules/**/*.routes.ts'],
      rules: {
        'no-restricted-imports': ['error', { patterns: [...MODULE_IMPORTS, ...ROUTES_IMPORTS] }],
        // The module file builds a module's services (docs/architecture.md#server-modules); its routes are handed them.
        'no-restricted-syntax': [
          'error',
          {
            selector: 'NewExpression[callee.name=/(Service|Flows|Store)$/]',
            message: 'A routes file is handed its services: build them in the module file (<domain>.module.ts).',
          },
        ],
      },
    },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'src/server/db/migrations/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    plugins: { olympus: OLYMPUS },
    rules: { 'olympus/no-deep-relative-imports': 'error' },
  },
  {
    files: ['src/web/**/*.tsx'],
    ignores: ['**/*.test.tsx', ...NOT_YET_TRANSLATED.map((entry) => (entry.endsWith('.tsx') ? entry : `${entry}/**`))],
    plugins: { olympus: OLYMPUS },
    rules: {
      'olympus/no-unlocalized-jsx-text': [
        'error',
        {
          ignore: SAME_IN_EVERY_LANGUAGE,
          ignoreNames: [...NON_TEXT_PROPS, ...NON_TEXT_PROP_PATTERNS.map((pattern) => ({ regex: { pattern } }))],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      // The compiled server has no #web alias (dist/package.json); the browser code is not its to import.
      'no-restricted-imports': ['error', { patterns: [{ regex: '^#web/', message: 'Server code must not import web code.' }] }],
    },
  },
  {
    // A server file past 450 lines holds several concerns; split it into use-case files in its module
    // (docs/guides/server-layout.md). Tests and the provider sandboxes are exempt.
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/server/test/**', 'src/server/sandbox/**'],
    rules: { 'max-lines': ['error', { max: 450 }] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Boundaries: the browser never imports server code.
      'no-restricted-imports': ['error', { patterns: [SERVER_CODE, SERVER_ALIAS] }],
      // Amounts and other figures go through one formatter each (src/web/lib/format.ts, decision 0314): a
      // hand-rolled toFixed(2) is how one screen came to show three decimals where the others show two.
      // One decimal (a size in KB, a duration, a click rate) stays free.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toFixed']:not([arguments.0.value=1])",
          message: 'Format amounts with src/web/lib/format.ts (formatCredits, formatCreditAmount, formatSpend, …), not toFixed.',
        },
      ],
    },
  },
  {
    files: ['src/web/lib/format.ts', 'src/web/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Layers run one way: shared (components/, lib/, stores/, config) → features → app (docs/decisions/0094).
    // A feature uses another only through what it exports: the files at its root, usually index.ts,
    // never its api/, components/, hooks/, lib/, stores/, pages/ or content/ (app/ may compose them).
    files: ['src/web/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: FEATURE_BOUNDARIES,
        },
      ],
    },
  },
  {
    files: ['src/web/components/**/*.{ts,tsx}', 'src/web/lib/**/*.{ts,tsx}', 'src/web/stores/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: SHARED_WEB_BOUNDARIES,
        },
      ],
    },
  },
  // Only the features' api/ folders and src/web/lib call the API client (tests may script it), and the
  // rest of a feature uses its api/ folder through hooks.
  {
    files: ['src/web/features/**/*.{ts,tsx}'],
    ignores: ['src/web/features/*/api/**', '**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...FEATURE_BOUNDARIES, ...API_CALLS, ...PLAIN_API_FUNCTIONS] }] },
  },
  {
    // Deliberate callers of plain api/ functions, outside any hook (docs/decisions/0225): the ads store
    // and the auth entry's start-up check and guest start (no query client on the home page, decisions
    // 0093 and 0245), the guest-rewards redemption after a sign-in, and the connection callbacks'
    // single-use sequence, which runs once per code as a query; and the language switch, which stores a
    // signed-in visitor's choice from the header (decision 0326).
    files: [
      'src/web/features/auth/index.ts',
      'src/web/features/language/choose-locale.ts',
      'src/web/features/ads/stores/ads-store.ts',
      'src/web/features/exchange/lib/redeem-guest-rewards.ts',
      'src/web/features/connections/pages/*-callback-page.tsx',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [...FEATURE_BOUNDARIES, ...API_CALLS] }] },
  },
  {
    files: ['src/web/components/**/*.{ts,tsx}', 'src/web/stores/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...SHARED_WEB_BOUNDARIES, ...API_CALLS] }] },
  },
  {
    files: ['src/web/app/**/*.{ts,tsx}', 'src/web/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_CODE, SERVER_ALIAS, ...API_CALLS] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/web/**'], message: 'Shared code depends on nothing but itself and zod.' },
            { regex: '^#(server|web)/', message: 'Shared code depends on nothing but itself and zod.' },
          ],
        },
      ],
    },
  },
  // Server layering (docs/decisions/0100-server-layout.md). The database layer sits below every module:
  // it imports nothing from outside src/server/db. Modules reach each other through services, tables
  // and other helpers, never through another module's routes or module wiring (that is the app's job).
  {
    files: ['src/server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*'], message: 'The database layer imports nothing from modules or the app above it.' },
            { regex: '^#(web/|server/(?!db/))', message: 'The database layer imports nothing from modules or the app above it.' },
          ],
        },
      ],
    },
  },
  ...serverModuleRules(),
);
