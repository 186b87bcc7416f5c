// Finds the Electron executable by its files alone: requiring `electron`
// throws where the binary is missing, which is the case wherever it cannot be
// downloaded. The _electron specs skip themselves when this returns null.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root: the app Electron is started on. */
export const APP_ROOT = path.resolve(__dirname, '../../..');

export function electronBinary(): string | null {
  const packageDir = path.join(APP_ROOT, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = path.join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : null;
}

export const MISSING_BINARY_REASON = 'Electron binary not installed (node_modules/electron/path.txt or dist/ missing); the _electron specs need it.';
