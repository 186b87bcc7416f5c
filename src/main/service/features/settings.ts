// Settings requests: read and save ~/.mino/config.json; every window hears about a save.
//
// A new base URL on another host would send the API key there with the next
// request, and the renderer is untrusted: while a key is set, such a change
// waits for a yes asked by main itself (a native dialog), which no page can give.
import { loadSettings, saveSettings } from '../../core/config/settings';
import { minoPaths } from '../../core/config/minoHome';
import type { SettingsPatch, SettingsView } from '../../../shared/settings';
import type { ClientId, ClientRegistry } from '../clients';
import type { NativeConfirm, SecretStore } from '../ports';
import { resolveApiKey } from './apiKey';

export interface SettingsDeps {
  homeDir: string;
  clients: ClientRegistry;
  secrets: SecretStore;
  env: NodeJS.ProcessEnv;
  confirm?: NativeConfirm;
  /** Told of every save, after the windows are. */
  settingsChanged?(view: SettingsView): void;
}

export async function getSettings(homeDir: string): Promise<SettingsView> {
  const loaded = await loadSettings(homeDir);
  if (!loaded.ok) throw new Error(loaded.error);
  return { ...loaded.value, path: minoPaths(homeDir).config };
}

export async function setSettings(deps: SettingsDeps, client: ClientId, input: SettingsPatch): Promise<SettingsView> {
  const { homeDir, clients } = deps;
  if (input.baseUrl !== undefined) await confirmNewHost(deps, client, input.baseUrl);
  const saved = await saveSettings(homeDir, input);
  if (!saved.ok) throw new Error(saved.error);
  const view = { ...saved.value, path: minoPaths(homeDir).config };
  clients.broadcast('settings:changed', view);
  deps.settingsChanged?.(view);
  return view;
}

/** Returns when the change may be saved; throws, saving nothing, when the person (or the lack of a way to ask) says no. */
async function confirmNewHost(deps: SettingsDeps, client: ClientId, baseUrl: string): Promise<void> {
  const loaded = await loadSettings(deps.homeDir);
  if (!loaded.ok) return; // saveSettings reports the broken file
  const current = loaded.value.settings.baseUrl;
  const from = originOf(current);
  const to = originOf(baseUrl);
  if (to === null || from === to) return; // an invalid URL is refused by saveSettings; a new path on the same host sends the key nowhere new
  if ((await resolveApiKey(deps.secrets, deps.env)) === null) return;

  const keep = `Nothing was saved: the base URL stays ${current}.`;
  if (deps.confirm === undefined) throw new Error(`${keep} Mino cannot ask you here whether to send your API key to ${to}.`);
  const yes = await deps.confirm(client, {
    title: 'Send your API key to a new host?',
    message: `Use ${to} as the model service?`,
    detail:
      `The base URL would change from ${current} to ${baseUrl}. Your API key is set, so every request would send it to ${to}. ` +
      'Change it only if you trust that service with your key.',
    confirmLabel: 'Change base URL',
  });
  if (!yes) throw new Error(`${keep} You chose not to send your API key to ${to}.`);
}

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}
