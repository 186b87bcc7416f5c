// Saving the model services of ~/.mino/config.json (`"services"` and
// `"service"`), for the desktop's Settings → Services. The rules are the ones
// reading the file applies (services.ts), checked on the whole file before it
// is written: a save that would make the file unreadable saves nothing. Every
// other key of the file is kept as it was; the write is atomic and 0600.
import type { ServiceConfig } from '../../../shared/modelServices';
import { ensureMinoHome, minoPaths, writePrivateFile } from './minoHome';
import { MiB, readPrivateText } from './readPrivateFile';
import { parseServiceSettings } from './services';
import { readSettingsWithServices, SettingsError } from './settings';

/** What a save does to the services part of the file. */
export type ServiceChange = { save: ServiceConfig; makeDefault: boolean } | { remove: string };

/**
 * Applies `change` to the file. Throws SettingsError (nothing written) when
 * the file cannot be read now, or would break the rules after the change.
 */
export async function changeServices(homeDir: string, change: ServiceChange): Promise<void> {
  const file = minoPaths(homeDir).config;
  // Refuses, saying why, a file that cannot be read as it is: a save would have to guess what it meant.
  await readSettingsWithServices(homeDir);
  const text = await readPrivateText(file, MiB);
  const stored = (text === null ? {} : JSON.parse(text)) as Record<string, unknown>;
  const listed = Array.isArray(stored.services) ? [...(stored.services as unknown[])] : [];
  const named = (name: string) => listed.findIndex((entry) => (entry as { name?: unknown } | null)?.name === name);
  if ('remove' in change) {
    const at = named(change.remove);
    if (at === -1) throw new SettingsError(`There is no service named "${change.remove}" in ${file}; nothing was removed.`, file);
    listed.splice(at, 1);
    // New sessions go back to the default service rather than name one that is gone.
    if (stored.service === change.remove) delete stored.service;
  } else {
    const at = named(change.save.name);
    if (at === -1) listed.push(change.save);
    else listed[at] = change.save;
    if (change.makeDefault) stored.service = change.save.name;
  }
  const next: Record<string, unknown> = { ...stored, services: listed };
  if (listed.length === 0) delete next.services;
  const checked = parseServiceSettings(next);
  if (!checked.ok) throw new SettingsError(`The service was not saved: ${checked.problems.join('; ')}.`, file);
  await ensureMinoHome(homeDir);
  await writePrivateFile(file, `${JSON.stringify(next, null, 2)}\n`);
}

/** Makes `name` (a listed service, or `default`) the one new sessions use. */
export async function chooseDefaultService(homeDir: string, name: string): Promise<void> {
  const file = minoPaths(homeDir).config;
  await readSettingsWithServices(homeDir);
  const text = await readPrivateText(file, MiB);
  const next = (text === null ? {} : JSON.parse(text)) as Record<string, unknown>;
  if (name === 'default') delete next.service;
  else next.service = name;
  const checked = parseServiceSettings(next);
  if (!checked.ok) throw new SettingsError(`The default service was not changed: ${checked.problems.join('; ')}.`, file);
  await ensureMinoHome(homeDir);
  await writePrivateFile(file, `${JSON.stringify(next, null, 2)}\n`);
}
