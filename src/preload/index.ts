// The sandboxed preload: exposes `window.mino`, built from the contract, and nothing else.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { EVENT_IPC_PREFIX } from '../shared/ipc';
import { buildMinoApi } from './buildApi';

const api = buildMinoApi({
  invoke: (channel, input) => ipcRenderer.invoke(channel, input),
  listen(channel, listener) {
    const ipcChannel = `${EVENT_IPC_PREFIX}${channel}`;
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(ipcChannel, wrapped);
    return () => {
      ipcRenderer.removeListener(ipcChannel, wrapped);
    };
  },
  // The renderer cannot read a dropped File's path (File.path is gone); only the preload can, and anything
  // that is not a real dropped or chosen file has none.
  pathForFile(file) {
    try {
      return webUtils.getPathForFile(file as File);
    } catch {
      return '';
    }
  },
});

contextBridge.exposeInMainWorld('mino', api);
