// Lint rules, chiefly the import directions of the architecture: a file's
// folder says where it runs, and what it may import follows from that. The
// project's own rules (eslint-rules/) keep pure modules off the clock, caught
// errors from vanishing, and synchronous file calls off main's thread.
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import mino from './eslint-rules/index.mjs';

/**
 * The layers of src/main/core, lowest first: a folder may import its own
 * files and those of lower layers, never a higher one. model and config know
 * nothing of the project; fs confines paths; sessions are the log format;
 * policy decides on facts; skills are found through fs under policy; tools
 * act through fs under policy (skill_view among them); mcp offers more tools;
 * agent runs the turn. A new folder needs a place here
 * (linting stops until it has one), so its direction is decided once.
 */
export const CORE_LAYERS = [
  'log',
  'model',
  'config',
  'fs',
  'images',
  'sessions',
  'locks',
  'rules',
  'policy',
  'sandbox',
  'projects',
  'skills',
  'tools',
  'checkpoints',
  'mcp',
  'context',
  'agent',
  'eval',
];

/**
 * The pure modules: they read no clock, random source or timer
 * (mino/no-clock-in-pure-module), so the same inputs give the same result; the
 * time comes from their caller. In the renderer the clock belongs to hooks
 * (use*.ts), components (.tsx) and lib/: every other .ts file under features/
 * and components/ (view models, reducers, text rules) takes the time it needs
 * as an argument.
 */
export const PURE_MODULES = [
  'src/shared/**',
  'src/main/core/policy/**',
  'src/main/core/context/**',
  'src/renderer/src/features/**/*.ts',
  'src/renderer/src/components/**/*.ts',
];
const PURE_MODULE_EXCEPTIONS = ['src/renderer/src/**/use*.ts'];


const coreFolders = readdirSync(new URL('./src/main/core/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unplaced = coreFolders.filter((folder) => !CORE_LAYERS.includes(folder));
if (unplaced.length > 0) {
  throw new Error(`src/main/core/${unplaced.join(', src/main/core/')} has no place in CORE_LAYERS (eslint.config.mjs). Add it where its imports belong.`);
}

const electron = { name: 'electron', message: 'Only src/main/electron, src/main/index.ts and src/preload may import electron.' };
const noElectron = { group: ['electron', 'electron/*'], message: electron.message };
const noAdapters = {
  group: ['**/electron/**', '**/main/electron', '**/preload/**', '**/renderer/**'],
  message: 'Core, service and CLI code never reaches into the Electron adapter, preload or renderer.',
};
// Every module Node ships, under both spellings, so no list of favourites can miss one.
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const nodeModules = `^(node:.*|(${builtinModules.map(escape).join('|')})(/.*)?)$`;

// The window's contract (the IPC channels and the views and inputs they carry) is zod schemas that only the
// desktop builds; core and the CLI may take its types, never a value, or the CLI would build them all at every start.
const windowContract = {
  '@typescript-eslint/no-restricted-imports': ['error', {
    patterns: [{
      group: ['**/shared/ipc', '**/shared/sessions', '**/shared/rules', '**/shared/review', '**/shared/evaluate'],
      allowTypeImports: true,
      message: 'Core and the CLI take only types from the window contract; put a value both need in a shared module of its own (see shared/messageText.ts).',
    }],
  }],
};

function restrict(patterns, paths = [electron]) {
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
}

function coreLayer(layer, index) {
  const higher = CORE_LAYERS.slice(index + 1);
  return {
    files: [`src/main/core/${layer}/**`],
    rules: {
      ...windowContract,
      ...restrict([
      noElectron,
      noAdapters,
      { group: ['**/service/**', '**/service', '**/cli/**', '**/cli'], message: 'src/main/core imports only shared, node:* and packages.' },
      ...(higher.length > 0
        ? [{
            group: higher.flatMap((name) => [`../${name}`, `../${name}/**`, `**/core/${name}`, `**/core/${name}/**`]),
            message: `core/${layer} may not import core/${higher.join(', core/')}: a lower layer never imports a higher one (CORE_LAYERS in eslint.config.mjs). Move what both need down, or pass it in.`,
          }]
        : []),
      ]),
    },
  };
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.cache/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...CORE_LAYERS.map(coreLayer),
  {
    files: ['src/main/service/**'],
    rules: restrict([noElectron, noAdapters, { group: ['**/cli/**', '**/cli'], message: 'The service never imports the CLI; both sit on core.' }]),
  },
  {
    files: ['src/cli/**'],
    rules: { ...windowContract, ...restrict([noElectron, noAdapters]) },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: '^(?!zod$|\\./).*', message: 'src/shared imports only zod (and its own files).' }],
      }],
    },
  },
  {
    files: ['src/renderer/**'],
    rules: restrict([
      noElectron,
      { group: ['**/main/**', '**/preload/*', '!**/preload/index.d'], message: 'The renderer talks to main through window.mino only; it imports shared types, not main or preload code.' },
      { regex: nodeModules, message: 'The renderer is sandboxed: no Node modules.' },
    ]),
  },
  {
    // CommonJS on purpose (loaded by the launch scripts, vitest and Playwright alike).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { plugins: { mino } },
  {
    files: PURE_MODULES,
    ignores: PURE_MODULE_EXCEPTIONS,
    rules: { 'mino/no-clock-in-pure-module': 'error' },
  },
  {
    // The program's code and its scripts; tests may catch to assert.
    files: ['src/**', 'scripts/**'],
    rules: { 'mino/no-silent-catch': 'error' },
  },
  {
    files: ['src/main/service/**', 'src/main/electron/**'],
    rules: { 'mino/no-sync-fs': 'error' },
  },
  {
    // One session host: the desktop and every CLI command open a session through
    // core/agent/sessionHost.ts, which names the owner, takes the lock and closes
    // every part together. Starting or resuming a Conversation anywhere else
    // would be a second path that could forget one of those.
    files: ['src/**'],
    ignores: ['src/main/core/agent/sessionHost.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.object.name='Conversation'][callee.property.name=/^(start|resume)$/]",
        message: 'Open sessions through openSession (src/main/core/agent/sessionHost.ts), the one session host.',
      }],
    },
  },
  {
    // Sizes a reader can hold in mind: a file of at most 350 lines, a function
    // of at most 80. A function that must be longer says why in the one form
    // allowed, directly above it:
    //   // eslint-disable-next-line max-lines-per-function -- <why it must be longer>
    files: ['src/**'],
    rules: {
      'max-lines': ['error', { max: 350, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
);
