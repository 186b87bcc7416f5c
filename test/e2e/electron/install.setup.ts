// Runs before every _electron spec (the `electron-setup` project): Electron's
// own installer, as `npm start` runs it, since Electron 42 fetches its binary
// at first use and not when npm installs the package. Where it cannot be
// fetched (no network), this reports itself skipped with the installer's
// reason, and so do the specs; with MINO_REQUIRE_ELECTRON=1 it fails instead.
import { test } from '@playwright/test';
import { runElectronInstaller } from '../../../scripts/lib/electron.cjs';
import { electronRequired } from './electronBinary';

test("Electron's installer provides the binary", () => {
  const result = runElectronInstaller({ stdio: 'pipe', timeoutMs: 5 * 60_000 });
  if (result.ok) return;
  const why = result.stderr.trim().split('\n').find((line) => line.trim() !== '') ?? `exit status ${result.status}`;
  const message = `Electron's installer could not provide the binary here: ${why}`;
  if (electronRequired()) throw new Error(message);
  test.skip(true, message);
});
