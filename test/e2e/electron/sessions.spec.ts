// Session windows in the real app: a project opened through the native
// dialog (stubbed in the main process, the one fake), a second session in a
// window of its own from the one factory, and the guards on that window too.
// Runs where Electron's binary is installed; skipped where it is not.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { launchMino, type LaunchedMino } from './launchMino';

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
interface MinoInPage {
  openProject(): Promise<Result<{ opened: boolean; project?: { path: string } }>>;
  newSession(): Promise<Result<{ where: 'here'; session: { id: string } } | { where: 'elsewhere'; sessionId: string }>>;
  openSession(input: { id: string }): Promise<Result<{ where: string }>>;
  getCurrentSession(): Promise<Result<{ id: string } | null>>;
}

let launched: LaunchedMino;
let app: ElectronApplication;
let first: Page;
let root: string;
let project: string;

test.beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-electron-sessions-')));
  const home = path.join(root, 'home');
  project = path.join(root, 'project');
  await fs.mkdir(home);
  await fs.mkdir(project);
  launched = await launchMino({ home });
  ({ app, page: first } = launched);
  // The native folder dialog is the one edge replaced: it "picks" the project.
  await app.evaluate(({ dialog }, folder) => {
    dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [folder] })) as unknown as typeof dialog.showOpenDialog;
  }, project);
});

test.afterEach(async () => {
  await launched?.close();
  await fs.rm(root, { recursive: true, force: true });
});

const mino = (page: Page) => page.evaluate.bind(page);

test('opens a project through the dialog and a second session in its own window', async () => {
  const opened = await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.openProject());
  expect(opened).toMatchObject({ ok: true, value: { opened: true, project: { path: project } } });

  const here = await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.newSession());
  expect(here).toMatchObject({ ok: true, value: { where: 'here' } });
  const firstId = here.ok && here.value.where === 'here' ? here.value.session.id : '';

  const windowOpened = app.waitForEvent('window');
  const elsewhere = await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.newSession());
  expect(elsewhere).toMatchObject({ ok: true, value: { where: 'elsewhere' } });
  const secondId = elsewhere.ok && elsewhere.value.where === 'elsewhere' ? elsewhere.value.sessionId : '';
  const second = await windowOpened;
  await second.waitForLoadState('domcontentloaded');
  expect(second.url()).toBe(`app://mino/index.html?session=${secondId}`);

  // The new window owns the new session; the first keeps its own, and asking it for the other focuses the owner.
  expect(await mino(second)((id) => (globalThis as unknown as { mino: MinoInPage }).mino.openSession({ id }), secondId)).toMatchObject({ ok: true, value: { where: 'here' } });
  expect(await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.getCurrentSession())).toMatchObject({ ok: true, value: { id: firstId } });
  expect(await mino(first)((id) => (globalThis as unknown as { mino: MinoInPage }).mino.openSession({ id }), secondId)).toMatchObject({ ok: true, value: { where: 'elsewhere' } });

  const titles = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => window.getTitle()));
  expect(titles).toHaveLength(2);
  for (const title of titles) expect(title).toContain('project');
});

test('a session window blocks navigation and window.open like the first one', async () => {
  await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.openProject());
  await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.newSession());
  const windowOpened = app.waitForEvent('window');
  await mino(first)(() => (globalThis as unknown as { mino: MinoInPage }).mino.newSession());
  const second = await windowOpened;
  await second.waitForLoadState('domcontentloaded');
  const url = second.url();

  expect(await second.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com') === null)).toBe(true);
  await second.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  // The page is still Mino's, and still talks to the service.
  expect(await mino(second)(() => (globalThis as unknown as { mino: MinoInPage }).mino.getCurrentSession())).toMatchObject({ ok: true });
  expect(second.url()).toBe(url);
  expect(app.windows()).toHaveLength(2);
});
