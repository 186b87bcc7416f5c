// Finds the Electron executable by its files alone: requiring `electron`
// throws where the binary is missing, which is the case wherever it cannot be
// downloaded. The `electron-setup` project runs Electron's installer first;
// the _electron specs then skip themselves where there is still no binary,
// or fail instead with MINO_REQUIRE_ELECTRON=1 (for a machine that has it).
import * as path from 'node:path';
import { test } from '@playwright/test';
import { installedElectronBinary } from '../../../scripts/lib/electron.cjs';

/** The repository root: the app Electron is started on. */
export const APP_ROOT = path.resolve(__dirname, '../../..');

export function electronBinary(): string | null {
  return installedElectronBinary(APP_ROOT);
}

export const MISSING_BINARY_REASON = 'Electron binary not installed (node_modules/electron/path.txt or dist/ missing); the _electron specs need it.';

/** Set where the binary can be had, so a spec that would skip fails instead. */
export const electronRequired = () => /^(1|true|yes)$/i.test(process.env.MINO_REQUIRE_ELECTRON ?? '');

/**
 * The binary for a spec, decided when the spec runs (after the installer ran):
 * skips it where there is none, or fails it where MINO_REQUIRE_ELECTRON says there must be one.
 */
export function requireElectronBinary(): string {
  const binary = electronBinary();
  if (binary === null) {
    if (electronRequired()) throw new Error(`${MISSING_BINARY_REASON} MINO_REQUIRE_ELECTRON is set, so this fails instead of skipping.`);
    test.skip(true, MISSING_BINARY_REASON);
  }
  return binary as string;
}
