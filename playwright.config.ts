// Playwright: the renderer in Chromium over the test bridge, and _electron
// specs that launch the built app where Electron's binary exists. Build first
// (npx electron-vite build); the specs use out/renderer and out/main as built.
// The _electron specs depend on electron-setup, which runs Electron's installer
// (the binary is fetched at first use since Electron 42, as npm start does).
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './test/support/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  // Two workers on two cores, shared with the vitest runs npm test starts beside; two alone kept both cores 97% busy
  // (docs/testing.md, CI).
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Generous on purpose: waiting longer for what does appear costs nothing, while a model round trip or
  // a 1,200-row diff on a loaded two-core machine took over 5 s to show and 30 s to finish.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Not test-results itself: Playwright empties its outputDir, and the vitest report lives there.
  outputDir: 'test-results/playwright-artifacts',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'renderer',
      testIgnore: '**/electron/**',
      use: { browserName: 'chromium', launchOptions: chromiumLaunchOptions() },
    },
    {
      name: 'electron-setup',
      testMatch: 'electron/install.setup.ts',
    },
    {
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts',
      dependencies: ['electron-setup'],
    },
  ],
});
