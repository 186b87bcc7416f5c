// Settings requests: read and save ~/.mino/config.json; every window hears about a save.
//
// The renderer is untrusted, so a change that widens what something outside
// this app's say can reach waits for a yes asked by main itself (a native
// dialog), which no page can give:
// - a new base URL on another host while a key is set (the key would go there
//   with the next request);
// - turning the bash sandbox off (every command would run with the person's
//   full rights);
// - a home folder added to the ones a sandboxed command may read.
// A refusal saves nothing. Narrowing (a folder removed, the sandbox back on)
// is saved at once.
import { commandSandbox } from '../../core/agent/defaultDeps';
import type { SandboxAvailability } from '../../core/sandbox/availability';
import { loadSettings, saveSettings, type LoadedSettings } from '../../core/config/settings';
import { minoPaths } from '../../core/config/minoHome';
import { resolveSandboxReadable } from '../../../shared/sandboxReadable';
import { sandboxStatusOf, type SandboxStatus } from '../../../shared/sandboxStatus';
import type { Settings, SettingsPatch, SettingsView } from '../../../shared/settings';
import type { ClientId, ClientRegistry } from '../clients';
import type { NativeConfirm, NativeQuestion, SecretStore } from '../ports';
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
  return settingsView(homeDir, loaded.value);
}

export async function setSettings(deps: SettingsDeps, client: ClientId, input: SettingsPatch): Promise<SettingsView> {
  const { homeDir, clients } = deps;
  const current = await loadSettings(homeDir);
  // A file that cannot be read is refused by saveSettings, which says why: there is nothing to compare with.
  if (current.ok) await confirmWidening(deps, client, current.value.settings, input);
  const saved = await saveSettings(homeDir, input);
  if (!saved.ok) throw new Error(saved.error);
  const view = await settingsView(homeDir, saved.value);
  clients.broadcast('settings:changed', view);
  deps.settingsChanged?.(view);
  return view;
}

async function settingsView(homeDir: string, loaded: LoadedSettings): Promise<SettingsView> {
  return { ...loaded, path: minoPaths(homeDir).config, sandbox: await sandboxStatus(loaded.settings) };
}

/** Whether commands run in the sandbox under the saved settings now, through the check every command goes through. */
export async function sessionSandbox(homeDir: string): Promise<SandboxAvailability> {
  const loaded = await loadSettings(homeDir);
  if (!loaded.ok) return { available: false, reason: `the settings cannot be read (${loaded.error})` };
  return commandSandbox(async () => loaded.value.settings);
}

/** What sandboxes commands under these settings, through the check every command goes through. */
async function sandboxStatus(settings: Settings): Promise<SandboxStatus> {
  return sandboxStatusOf(await commandSandbox(async () => settings));
}

/** Returns when the patch may be saved; throws, saving nothing, when the person (or the lack of a way to ask) says no. */
async function confirmWidening(deps: SettingsDeps, client: ClientId, current: Settings, input: SettingsPatch): Promise<void> {
  if (input.bashSandbox === false && current.bashSandbox) {
    await requireYes(deps, client, sandboxOffQuestion(), {
      kept: 'Nothing was saved: bash commands stay in the sandbox.',
      declined: 'You chose to keep it on.',
      cannotAsk: 'Mino cannot ask you here whether to turn it off.',
    });
  }
  const added = input.sandboxReadable ? addedFolders(current.sandboxReadable, input.sandboxReadable, deps.homeDir) : [];
  if (added.length > 0) {
    await requireYes(deps, client, readableQuestion(added), {
      kept: `Nothing was saved: sandboxed commands still cannot read ${joinAnd(added)}.`,
      declined: 'You chose not to let them.',
      cannotAsk: 'Mino cannot ask you here whether to let them.',
    });
  }
  if (input.baseUrl !== undefined) await confirmNewHost(deps, client, current.baseUrl, input.baseUrl);
}

interface Refusal {
  /** What stays as it was. */
  kept: string;
  /** After the person's no. */
  declined: string;
  /** Where main has no dialog to ask with. */
  cannotAsk: string;
}

async function requireYes(deps: SettingsDeps, client: ClientId, question: NativeQuestion, refusal: Refusal): Promise<void> {
  if (deps.confirm === undefined) throw new Error(`${refusal.kept} ${refusal.cannotAsk}`);
  if (!(await deps.confirm(client, question))) throw new Error(`${refusal.kept} ${refusal.declined}`);
}

/** The entries of `next` that name a folder `current` does not (compared as paths, so `~/x/` and `<home>/x` are `~/x`), as typed. */
function addedFolders(current: readonly string[], next: readonly string[], homeDir: string): string[] {
  const known = new Set(current.map((entry) => resolveSandboxReadable(entry, homeDir)));
  const added = new Map<string | null, string>();
  for (const entry of next) {
    const folder = resolveSandboxReadable(entry, homeDir);
    if (!known.has(folder) && !added.has(folder)) added.set(folder, entry.trim());
  }
  return [...added.values()];
}

function sandboxOffQuestion(): NativeQuestion {
  return {
    title: 'Turn off the bash sandbox?',
    message: 'Run every bash command with your full rights?',
    detail:
      "Without the sandbox every bash command runs with your account's permissions: it can read, change and delete any of your files, " +
      'read your keys and tokens, and reach the network. In bypass mode it runs without asking you.',
    confirmLabel: 'Turn off the sandbox',
  };
}

function readableQuestion(added: readonly string[]): NativeQuestion {
  return {
    title: 'Let sandboxed commands read more of your home?',
    message: added.length === 1 ? `Let every sandboxed command read ${added[0]}?` : `Let every sandboxed command read these ${added.length} folders?`,
    detail:
      `${added.join('\n')}\n\nEvery bash command would see the files there (read-only), and the model reads what a command prints. ` +
      'Add only folders of programs and libraries, never one that holds keys, tokens or passwords.',
    confirmLabel: 'Let them read',
  };
}

/** "a", "a and b", "a, b and c". */
function joinAnd(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Returns when the new base URL may be saved: same host, no key to send, or the person's yes. */
async function confirmNewHost(deps: SettingsDeps, client: ClientId, current: string, baseUrl: string): Promise<void> {
  const from = originOf(current);
  const to = originOf(baseUrl);
  if (to === null || from === to) return; // an invalid URL is refused by saveSettings; a new path on the same host sends the key nowhere new
  if ((await resolveApiKey(deps.secrets, deps.env)) === null) return;
  await requireYes(
    deps,
    client,
    {
      title: 'Send your API key to a new host?',
      message: `Use ${to} as the model service?`,
      detail:
        `The base URL would change from ${current} to ${baseUrl}. Your API key is set, so every request would send it to ${to}. ` +
        'Change it only if you trust that service with your key.',
      confirmLabel: 'Change base URL',
    },
    {
      kept: `Nothing was saved: the base URL stays ${current}.`,
      declined: `You chose not to send your API key to ${to}.`,
      cannotAsk: `Mino cannot ask you here whether to send your API key to ${to}.`,
    },
  );
}

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    // ignore: not a URL, so it names no host (saveSettings refuses it with the schema's message)
    return null;
  }
}
