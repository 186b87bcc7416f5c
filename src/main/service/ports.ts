// The edges the service reaches through injected ports, so tests can replace
// exactly these and nothing else: the native folder dialog and the key store.
import type { ClientId } from './clients';

/** Where the API key is kept (safeStorage in the app, memory in tests). Main-side only. */
export interface SecretStore {
  getApiKey(): Promise<string | null>;
  /** Throws an Error whose message tells a person what to do when the key cannot be stored. */
  setApiKey(apiKey: string): Promise<void>;
}

/** Shows a folder picker for one client's window; null when the person cancels. */
export type FolderPicker = (client: ClientId) => Promise<string | null>;

export interface ServicePorts {
  /** The person's home directory; ~/.mino lives here. */
  homeDir: string;
  appName: string;
  appVersion: string;
  secrets: SecretStore;
  pickFolder: FolderPicker;
  /** Read for OPENAI_API_KEY; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}
