// Settings requests: read and save ~/.mino/config.json; every window hears about a save.
import { loadSettings, saveSettings } from '../../core/config/settings';
import { minoPaths } from '../../core/config/minoHome';
import type { SettingsPatch, SettingsView } from '../../../shared/settings';
import type { ClientRegistry } from '../clients';

export async function getSettings(homeDir: string): Promise<SettingsView> {
  const loaded = await loadSettings(homeDir);
  if (!loaded.ok) throw new Error(loaded.error);
  return { ...loaded.value, path: minoPaths(homeDir).config };
}

export async function setSettings(homeDir: string, clients: ClientRegistry, input: SettingsPatch): Promise<SettingsView> {
  const saved = await saveSettings(homeDir, input);
  if (!saved.ok) throw new Error(saved.error);
  const view = { ...saved.value, path: minoPaths(homeDir).config };
  clients.broadcast('settings:changed', view);
  return view;
}
