// Lint rules, chiefly the import directions of the architecture: a file's
// folder says where it runs, and what it may import follows from that.
import tseslint from 'typescript-eslint';

const electron = { name: 'electron', message: 'Only src/main/electron, src/main/index.ts and src/preload may import electron.' };
const noElectronPatterns = [{ group: ['electron', 'electron/*'], message: electron.message }];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/main/core/**', 'src/main/service/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electron],
        patterns: [
          ...noElectronPatterns,
          { group: ['**/electron/**', '**/main/electron', '**/preload/**', '**/renderer/**'], message: 'Core, service and CLI code never reaches into the Electron adapter, preload or renderer.' },
        ],
      }],
    },
  },
  {
    files: ['src/main/core/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electron],
        patterns: [
          ...noElectronPatterns,
          { group: ['**/service/**', '**/service', '**/electron/**', '**/preload/**', '**/renderer/**', '**/cli/**'], message: 'src/main/core imports only shared, node:* and packages.' },
        ],
      }],
    },
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
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electron],
        patterns: [
          ...noElectronPatterns,
          { group: ['**/main/**', '**/preload/*', '!**/preload/index.d'], message: 'The renderer talks to main through window.mino only; it imports shared types, not main or preload code.' },
          { group: ['node:*', 'fs', 'path', 'child_process', 'os'], message: 'The renderer is sandboxed: no Node modules.' },
        ],
      }],
    },
  },
);
