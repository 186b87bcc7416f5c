// The renderer's only way to reach main: window.mino, with each result
// unwrapped so callers get a value or an ApiError carrying a person-facing message.
import type {
  ApiKeyStatus,
  AppInfo,
  IpcResult,
  MinoApi,
  OpenProjectResult,
  Project,
  RecentProject,
  Settings,
  SettingsView,
} from '../../../shared/ipc';

export class ApiError extends Error {
  override name = 'ApiError';
}

function bridge(): MinoApi {
  if (!('mino' in window) || !window.mino) {
    throw new ApiError('This page is not connected to Mino. Start it from the Mino app.');
  }
  return window.mino;
}

async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  const result = await pending;
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const api = {
  appInfo: (): Promise<AppInfo> => unwrap(bridge().getAppInfo()),
  settings: (): Promise<SettingsView> => unwrap(bridge().getSettings()),
  saveSettings: (settings: Settings): Promise<SettingsView> => unwrap(bridge().saveSettings(settings)),
  apiKeyStatus: (): Promise<ApiKeyStatus> => unwrap(bridge().getApiKeyStatus()),
  setApiKey: (apiKey: string): Promise<ApiKeyStatus> => unwrap(bridge().setApiKey({ apiKey })),
  recentProjects: (): Promise<RecentProject[]> => unwrap(bridge().listRecentProjects()),
  openProject: (): Promise<OpenProjectResult> => unwrap(bridge().openProject()),
  openRecentProject: (path: string): Promise<OpenProjectResult> => unwrap(bridge().openRecentProject({ path })),
  currentProject: (): Promise<Project | null> => unwrap(bridge().getCurrentProject()),
  onSettingsChanged: (callback: (view: SettingsView) => void): (() => void) => bridge().onSettingsChanged(callback),
  onRecentProjectsChanged: (callback: (projects: RecentProject[]) => void): (() => void) => bridge().onRecentProjectsChanged(callback),
};
