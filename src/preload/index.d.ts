// Types `window.mino` for the renderer (included by tsconfig.web.json).
import type { MinoApi } from '../shared/ipc';

declare global {
  interface Window {
    readonly mino: MinoApi;
  }
}

export {};
