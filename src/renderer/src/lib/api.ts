// The renderer's only way to reach main: window.mino, with each result
// unwrapped so callers get a value or an ApiError carrying a person-facing message.
import type { SessionSummary } from '../../../shared/domain';
import type {
  ApiKeyStatus,
  AppInfo,
  IpcResult,
  MenuCommand,
  MinoApi,
  OpenProjectResult,
  Project,
  RecentProject,
} from '../../../shared/ipc';
import type { SettingsPatch, SettingsView } from '../../../shared/settings';
import type { ApprovalRequestView, ModeChangeResult, SessionOpenResult, SessionView, TurnEvent } from '../../../shared/sessions';

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

export interface SessionEventMessage {
  sessionId: string;
  event: TurnEvent;
}

export const api = {
  appInfo: (): Promise<AppInfo> => unwrap(bridge().getAppInfo()),
  settings: (): Promise<SettingsView> => unwrap(bridge().getSettings()),
  saveSettings: (settings: SettingsPatch): Promise<SettingsView> => unwrap(bridge().saveSettings(settings)),
  apiKeyStatus: (): Promise<ApiKeyStatus> => unwrap(bridge().getApiKeyStatus()),
  setApiKey: (apiKey: string): Promise<ApiKeyStatus> => unwrap(bridge().setApiKey({ apiKey })),
  recentProjects: (): Promise<RecentProject[]> => unwrap(bridge().listRecentProjects()),
  openProject: (): Promise<OpenProjectResult> => unwrap(bridge().openProject()),
  openRecentProject: (path: string): Promise<OpenProjectResult> => unwrap(bridge().openRecentProject({ path })),
  currentProject: (): Promise<Project | null> => unwrap(bridge().getCurrentProject()),

  listSessions: (): Promise<SessionSummary[]> => unwrap(bridge().listSessions()),
  newSession: (): Promise<SessionOpenResult> => unwrap(bridge().newSession()),
  openSession: (id: string): Promise<SessionOpenResult> => unwrap(bridge().openSession({ id })),
  currentSession: (): Promise<SessionView | null> => unwrap(bridge().getCurrentSession()),
  clearSession: (): Promise<SessionView> => unwrap(bridge().clearSession()),
  acknowledgeUnknownResults: (): Promise<SessionView> => unwrap(bridge().acknowledgeUnknownResults()),
  sendMessage: (text: string): Promise<{ started: true }> => unwrap(bridge().sendMessage({ text })),
  stopTurn: (): Promise<{ stopped: boolean }> => unwrap(bridge().stopTurn()),
  answerApproval: (requestId: string, approved: boolean): Promise<{ accepted: boolean }> => unwrap(bridge().answerApproval({ requestId, approved })),
  /** Loosening: call once without `confirmationId`, then again with the one the service returned with its warning. */
  setPermissionMode: (mode: string, confirmationId?: string): Promise<ModeChangeResult> =>
    unwrap(bridge().setPermissionMode(confirmationId === undefined ? { mode } : { mode, confirmationId })),

  onSettingsChanged: (callback: (view: SettingsView) => void): (() => void) => bridge().onSettingsChanged(callback),
  onRecentProjectsChanged: (callback: (projects: RecentProject[]) => void): (() => void) => bridge().onRecentProjectsChanged(callback),
  onSessionEvent: (callback: (message: SessionEventMessage) => void): (() => void) => bridge().onSessionEvent(callback),
  onSessionChanged: (callback: (view: SessionView) => void): (() => void) => bridge().onSessionChanged(callback),
  onApprovalRequest: (callback: (request: ApprovalRequestView) => void): (() => void) => bridge().onApprovalRequest(callback),
  onMenuCommand: (callback: (command: MenuCommand) => void): (() => void) => bridge().onMenuCommand((payload) => callback(payload.command)),
  onApprovalClosed: (callback: (closed: { requestId: string; reason: string }) => void): (() => void) => bridge().onApprovalClosed(callback),
};
