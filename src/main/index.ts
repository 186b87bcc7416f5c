// App lifecycle only: wire the secure pieces together and open the first window.
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, net, Notification, protocol, safeStorage, shell } from 'electron';
import { withholdSecretsFromProcess } from './core/config/environmentSecret';
import { minoPaths, resolveHomeDir } from './core/config/minoHome';
import { loadSettings, loadSettingsWithServices } from './core/config/settings';
import { serviceKeyVariables } from './core/config/services';
import { addLogSecrets, addLogSink, errorText, log } from './core/log/log';
import { dailyFileSink } from './core/log/sinks';
import { APP_ENTRY_URL, APP_HOST, APP_ORIGIN, APP_SCHEME, createRendererRequestHandler } from './electron/appProtocol';
import { rendererCsp } from './electron/csp';
import { createFilePicker, createFolderPicker, createNativeConfirm } from './electron/dialogs';
import { installGuards } from './electron/guards';
import { createIpcGate, originOf, registerIpc } from './electron/ipc';
import { netFetch } from './electron/netFetch';
import { applicationMenuTemplate } from './electron/menu';
import { createApprovalNotifier } from './electron/notifications';
import { createSafeStorageSecretStore } from './electron/secrets';
import { claimSingleInstance } from './electron/singleInstance';
import { applyStartupSwitches } from './electron/startupSwitches';
import { createWindowTheme } from './electron/theme';
import { TrustedWindows } from './electron/trustedWindows';
import { windowTitle } from './electron/windowTitle';
import { createWindowFactory } from './electron/windows';
import { listRecentProjects } from './service/features/recentProjects';
import { MinoService } from './service/minoService';

// First, before Mino starts any child of its own: the model service key leaves this process's environment, and
// its start-up block, where a command run outside the sandbox could read it (environmentSecret.ts). The service
// reads the model settings from the copy, which still holds it.
const withheld = withholdSecretsFromProcess();

// Must happen before `ready`: app:// behaves like https (secure, standard origin).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();
// Also before `ready`: the GPU (MINO_DISABLE_GPU) and, on Linux desktops Electron does not map, the keyring.
const switches = applyStartupSwitches({ platform: process.platform, env: process.env, commandLine: app.commandLine, app });

/**
 * Takes the variables holding a model service's key (its apiKeyEnv) out of the environment as OPENAI_API_KEY was
 * above: at start-up once the settings say which they are, and for a service saved later. The service reads them
 * from withheld.env, the copy taken before, which still holds them.
 */
function withholdVariables(names: readonly string[]): void {
  addLogSecrets(names.map((name) => withheld.env[name]));
  for (const detail of withholdSecretsFromProcess({ names }).leftBehind) log.warn('app.secret_left_in_environment', { detail });
}

/** Opens a window for a second launch of Mino; set once the first window can be made. */
let openWindowForSecondLaunch: (() => void) | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  const pageOrigins = devOrigin ? [devOrigin] : [APP_ORIGIN];
  installGuards(app, pageOrigins);
  protocol.handle(APP_SCHEME, createRendererRequestHandler({ rendererDir: join(__dirname, '../renderer'), csp: rendererCsp(), host: APP_HOST }));

  const homeDir = resolveHomeDir();
  const logDirectory = minoPaths(homeDir).logs;
  addLogSink(dailyFileSink({ dir: logDirectory }));
  addLogSecrets([withheld.env.OPENAI_API_KEY]);
  log.info('app.start', { version: app.getVersion(), electron: process.versions.electron, node: process.versions.node, platform: process.platform, ...switches });
  for (const detail of withheld.leftBehind) log.warn('app.secret_left_in_environment', { detail });
  // Likewise each model service's key variable (its apiKeyEnv), before any child starts.
  const configured = await loadSettingsWithServices(homeDir);
  if (configured.ok) withholdVariables(serviceKeyVariables(configured.value.services));
  const theme = createWindowTheme({ nativeTheme, windows: () => BrowserWindow.getAllWindows() });
  const settings = await loadSettings(homeDir);
  // Unreadable settings keep the system's theme; Settings shows why they could not be read.
  if (settings.ok) theme.follow(settings.value.settings.theme);
  const service: MinoService = new MinoService({
    homeDir,
    env: withheld.env,
    appName: 'Mino',
    appVersion: app.getVersion(),
    logDirectory,
    secrets: createSafeStorageSecretStore(safeStorage, homeDir),
    pickFolder: createFolderPicker(
      dialog,
      (client): BrowserWindow | undefined => windows.windowFor(client),
      async () => (await listRecentProjects(homeDir))[0]?.path,
    ),
    pickFile: createFilePicker(dialog, (client): BrowserWindow | undefined => windows.windowFor(client)),
    // Waits for the page, so a window that cannot load does not leave an empty session behind.
    openSessionWindow: (sessionId) => createWindow({ sessionId }).loaded,
    focusClient: (client) => windows.focus(client),
    notifyApprovalWaiting: createApprovalNotifier({
      Notification,
      isFocused: (client) => windows.isFocused(client),
      focus: (client) => windows.focus(client),
      requestAttention: (client) => windows.requestAttention(client),
      describe: (client) => windows.windowFor(client)?.getTitle() ?? 'A Mino session',
    }).notify,
    settingsChanged: (view) => theme.follow(view.settings.theme),
    clientContextChanged: (client, context) => windows.setTitle(client, windowTitle(context)),
    // Only ever called with a URL the links feature checked and the person confirmed.
    openExternal: (url) => shell.openExternal(url),
    confirm: createNativeConfirm(dialog, (client): BrowserWindow | undefined => windows.windowFor(client)),
    // Model requests and connection tests go through Chromium's network stack (system proxy, PAC, OS certificates).
    fetch: netFetch(net),
    withholdVariables,
  });
  const windows: TrustedWindows = new TrustedWindows(service);
  closeService = () => service.close();

  registerIpc(ipcMain, createIpcGate({ target: service, clientFor: (sender) => windows.clientFor(sender), allowedOrigins: pageOrigins }));

  // Every window, including a session's own, comes from this one factory.
  const createWindow = createWindowFactory({
    BrowserWindow,
    preloadPath: join(__dirname, '../preload/index.js'),
    rendererUrl: devServerUrl ?? APP_ENTRY_URL,
    backgroundColor: () => theme.background(),
    onCreated: (window) => {
      windows.track(window);
      // The title follows the project and session (set by main), not the page.
      window.on('page-title-updated', (event) => event.preventDefault());
    },
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      applicationMenuTemplate({
        appName: 'Mino',
        isMac: process.platform === 'darwin',
        command: (command) => {
          const client = windows.clientOfWindow(BrowserWindow.getFocusedWindow());
          if (client) windows.send(client, 'menu:command', { command });
          else createWindow();
        },
      }),
    ),
  );

  createWindow();
  openWindowForSecondLaunch = () => createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

// Closing a window stops its turn and closes its session in the background;
// quitting waits for that, so no session log or MCP server is cut off mid-write.
let closeService: (() => Promise<void>) | null = null;
let closed = false;
app.on('will-quit', (event) => {
  if (closed || !closeService) return;
  event.preventDefault();
  void closeService()
    .catch((error: unknown) => log.error('app.quit.close_failed', { error: errorText(error) }))
    .finally(() => {
      closed = true;
      app.quit();
    });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// A second launch hands over to the running Mino (which opens a window) and quits.
if (!claimSingleInstance(app, () => openWindowForSecondLaunch?.())) {
  app.quit();
} else {
  start().catch((error: unknown) => {
    log.error('app.start_failed', { error: errorText(error) });
    dialog.showErrorBox('Mino could not start', `${error instanceof Error ? error.message : String(error)}\n\nCheck that HOME is set and ~/.mino is writable, then start Mino again.`);
    app.exit(1);
  });
}
