// The edges the service reaches through injected ports, so tests can replace
// exactly these and nothing else: the native folder dialog, the key store,
// and the window system (new session windows, focus, notifications, titles).
import type { SessionId } from '../../shared/domain';
import type { Project } from '../../shared/ipc';
import type { SettingsView } from '../../shared/settings';
import type { ClientId } from './clients';

/**
 * Where the model services' API keys are kept, one per service name
 * (safeStorage in the app, memory in tests). Main-side only. The one key
 * older versions stored is the key of the service named `default`.
 */
export interface SecretStore {
  getKey(service: string): Promise<string | null>;
  /** Throws an Error whose message tells a person what to do when the key cannot be stored. */
  setKey(service: string, apiKey: string): Promise<void>;
  /** Forgets the service's key; nothing happens when it has none. */
  deleteKey(service: string): Promise<void>;
}

/** Shows a folder picker for one client's window; null when the person cancels. */
export type FolderPicker = (client: ClientId) => Promise<string | null>;

/** What a file dialog asks for: its title and the kinds of file it offers. */
export interface FilePickOptions {
  title: string;
  filters: Array<{ name: string; extensions: string[] }>;
}

/** Shows a file picker (one existing file) for one client's window; null when the person cancels. */
export type FilePicker = (client: ClientId, options: FilePickOptions) => Promise<string | null>;

/**
 * Opens a new client (a window) for a session; that client's renderer then
 * calls `sessions:open` with the id it was given. Throws with a person-facing
 * message when no window can be opened.
 */
export type SessionWindowOpener = (sessionId: SessionId) => void | Promise<void>;

/** Brings an existing client's window to the front. */
export type ClientFocuser = (client: ClientId) => void;

/** Tells the person that a session waits for an approval (an OS notification when its window is not focused). */
export type ApprovalWaitingNotifier = (client: ClientId, sessionId: SessionId, toolName: string) => void;

/** Hands a checked https: URL to the system browser (shell.openExternal in the app, a recorder in tests). */
export type ExternalUrlOpener = (url: string) => Promise<void>;

/** A yes/no question main asks itself, outside any page (a native message box in the app, a fake in tests). */
export interface NativeQuestion {
  title: string;
  message: string;
  detail: string;
  /** The risky answer; the other, the default, is Cancel. */
  confirmLabel: string;
}

/** Asks a question over one client's window; true only for an explicit yes. */
export type NativeConfirm = (client: ClientId, question: NativeQuestion) => Promise<boolean>;

/** What a client shows now, for its window title. `label` names the session for a person. */
export interface ClientContext {
  project: Project | null;
  session: { id: SessionId; label: string } | null;
}
export type ClientContextListener = (client: ClientId, context: ClientContext) => void;

export interface ServicePorts {
  /** The person's home directory; ~/.mino lives here. */
  homeDir: string;
  appName: string;
  appVersion: string;
  /** Where the diagnostic trail is written, for Settings to show; absent when nothing writes one. */
  logDirectory?: string;
  secrets: SecretStore;
  pickFolder: FolderPicker;
  /** Without it, no case file can be chosen for the Evaluate view (its built-in suite still runs). */
  pickFile?: FilePicker;
  /**
   * Read for OPENAI_API_KEY, OPENAI_BASE_URL and MINO_MODEL: the environment Mino started with
   * (core/config/environmentSecret.ts). Pass it: process.env no longer holds OPENAI_API_KEY.
   * Defaults to process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Without it, a second session cannot be opened from a client that already has one. */
  openSessionWindow?: SessionWindowOpener;
  focusClient?: ClientFocuser;
  notifyApprovalWaiting?: ApprovalWaitingNotifier;
  /** Called whenever a client's project or session changes. */
  clientContextChanged?: ClientContextListener;
  /** Called after settings are saved (the app's own windows follow the Theme). */
  settingsChanged?(view: SettingsView): void;
  /** Without it, links are never opened. */
  openExternal?: ExternalUrlOpener;
  /** Without it, whatever needs a person's own yes in main (a new model service host while a key is set) is refused. */
  confirm?: NativeConfirm;
  /**
   * The transport for model requests and connection tests: Electron's net.fetch in the app (system proxy, PAC
   * files, the OS certificate store). Without it, core's environmentFetch (HTTPS_PROXY and friends).
   */
  fetch?: typeof fetch;
  /**
   * Takes environment variables that hold a service's key out of this process's environment, so no command
   * inherits them (core/config/environmentSecret.ts); called for a service saved with a new apiKeyEnv. The
   * `env` port keeps its copy. Without it nothing is taken out (tests, where `env` is not process.env).
   */
  withholdVariables?(names: readonly string[]): void;
}
