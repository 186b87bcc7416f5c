// App lifecycle only: wire the secure pieces together and open the first window.
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, shell } from 'electron';
import { resolveHomeDir } from './core/config/minoHome';
import { APP_ENTRY_URL, APP_HOST, APP_ORIGIN, APP_SCHEME, createRendererRequestHandler } from './electron/appProtocol';
import { rendererCsp } from './electron/csp';
import { createFolderPicker } from './electron/dialogs';
import { installGuards } from './electron/guards';
import { createIpcGate, originOf, registerIpc } from './electron/ipc';
import { createSafeStorageSecretStore } from './electron/secrets';
import { TrustedWindows } from './electron/trustedWindows';
import { createWindowFactory } from './electron/windows';
import { MinoService } from './service/minoService';

// Must happen before `ready`: app:// behaves like https (secure, standard origin).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

async function start(): Promise<void> {
  await app.whenReady();
  installGuards(app, shell);

  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  protocol.handle(APP_SCHEME, createRendererRequestHandler({ rendererDir: join(__dirname, '../renderer'), csp: rendererCsp(), host: APP_HOST }));

  const homeDir = resolveHomeDir();
  const service: MinoService = new MinoService({
    homeDir,
    appName: 'Mino',
    appVersion: app.getVersion(),
    secrets: createSafeStorageSecretStore(safeStorage, homeDir),
    pickFolder: createFolderPicker(dialog, (client): BrowserWindow | undefined => windows.windowFor(client)),
  });
  const windows: TrustedWindows = new TrustedWindows(service);

  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  registerIpc(ipcMain, createIpcGate({ target: service, clientFor: (sender) => windows.clientFor(sender), allowedOrigins: devOrigin ? [devOrigin] : [APP_ORIGIN] }));

  const createWindow = createWindowFactory({
    BrowserWindow,
    preloadPath: join(__dirname, '../preload/index.js'),
    rendererUrl: devServerUrl ?? APP_ENTRY_URL,
    onCreated: (window) => windows.track(window),
  });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

start().catch((error: unknown) => {
  dialog.showErrorBox('Mino could not start', `${error instanceof Error ? error.message : String(error)}\n\nCheck that HOME is set and ~/.mino is writable, then start Mino again.`);
  app.exit(1);
});
