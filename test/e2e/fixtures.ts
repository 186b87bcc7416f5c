// A real MinoService in a temp HOME, reached by the real renderer in Chromium
// through the test bridge. Only the folder dialog and the key store are fakes.
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { test as base } from '@playwright/test';
import { MinoService } from '../../src/main/service/minoService';
import { FakeFolderPicker } from '../support/bridge/fakeFolderPicker';
import { installMinoOverSocket } from '../support/bridge/browserClient';
import { MemorySecretStore } from '../support/bridge/memorySecretStore';
import { startTestBridge } from '../support/bridge/server';

export const RENDERER_DIR = path.resolve(__dirname, '../../out/renderer');

export interface MinoHarness {
  /** The temp home directory (HOME for the service). */
  home: string;
  service: MinoService;
  picker: FakeFolderPicker;
  /** Loads the renderer with window.mino connected to the service. */
  open(): Promise<void>;
}

export const test = base.extend<{ mino: MinoHarness }>({
  mino: async ({ page }, use) => {
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
      throw new Error(`No built renderer in ${RENDERER_DIR}. Run "npx electron-vite build" first.`);
    }
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-e2e-home-'));
    const picker = new FakeFolderPicker();
    const service = new MinoService({
      homeDir: home,
      appName: 'Mino',
      appVersion: '0.0.0-test',
      secrets: new MemorySecretStore(),
      pickFolder: picker.pick,
      env: {},
    });
    const bridge = await startTestBridge({ service, rendererDir: RENDERER_DIR });
    await page.addInitScript(installMinoOverSocket, bridge.clientConfig);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // CSP violations and failed loads surface as console errors; the shell must have none.
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`${message.text()} (${message.location().url})`);
    });
    try {
      await use({
        home,
        service,
        picker,
        open: async () => {
          await page.goto(bridge.url);
        },
      });
      if (pageErrors.length > 0) throw new Error(`The renderer reported errors: ${pageErrors.join('; ')}`);
    } finally {
      await bridge.close();
      await fs.rm(home, { recursive: true, force: true });
    }
  },
});

export { expect } from '@playwright/test';
