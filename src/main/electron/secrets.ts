// The model services' API keys, each encrypted with the operating system's
// key store (safeStorage) into ~/.mino/secrets.json (0600), by service name.
// Refuses to store one where Electron would only obfuscate it (Linux without
// a keyring), and says what to do instead. The file of older versions held
// one key (`apiKey`): it is read as the key of the service named `default`,
// and moved under that name by the next write, so nothing is lost.
import type { SafeStorage } from 'electron';
import { z } from 'zod';
import { ensureMinoHome, minoPaths, writePrivateFile } from '../core/config/minoHome';
import { KiB, readPrivateText } from '../core/config/readPrivateFile';
import type { SecretStore } from '../service/ports';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

const SecretsFileSchema = z.object({
  /** The one key of older versions: the `default` service's. */
  apiKey: z.string().optional(),
  /** Each service's key, encrypted and base64-encoded, by the service's name. */
  services: z.record(z.string(), z.string()).optional(),
});
type SecretsFile = z.infer<typeof SecretsFileSchema>;

/** The service whose key older versions stored alone. */
const LEGACY_KEY_SERVICE = 'default';

export const NO_SECURE_STORAGE_MESSAGE =
  'Mino cannot store the API key securely on this system (no keyring is available). Set the key in the environment before starting Mino instead (OPENAI_API_KEY, or the variable the service\'s apiKeyEnv names).';

/**
 * On Linux, says which keyrings Mino can use and the switch that picks one:
 * where no Secret Service answers, Electron falls back to a store with a fixed key.
 */
export const NO_KEYRING_ON_LINUX_MESSAGE =
  'Mino cannot store the API key securely: no keyring answered, so Electron fell back to a plain-text store. ' +
  'Start a Secret Service (gnome-keyring, KeePassXC with Secret Service integration, or KWallet) and restart Mino; ' +
  'Mino asks it with --password-store=gnome-libsecret on desktops Electron does not recognise, and you can pick another ' +
  'store yourself (npm start -- --password-store=kwallet6). Or set the key in the environment before starting Mino (OPENAI_API_KEY, or the variable the service\'s apiKeyEnv names).';

export function noSecureStorageMessage(platform: NodeJS.Platform): string {
  return platform === 'linux' ? NO_KEYRING_ON_LINUX_MESSAGE : NO_SECURE_STORAGE_MESSAGE;
}

function canEncrypt(safeStorage: SafeStorageLike): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  // On Linux without a keyring, "basic_text" encrypts with a fixed, public key.
  return safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
}

export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, homeDir: string, platform: NodeJS.Platform = process.platform): SecretStore {
  const file = minoPaths(homeDir).secrets;

  /** The encrypted keys by service name, the old single key read as `default`'s. */
  async function readKeys(): Promise<Record<string, string>> {
    // A few hundred bytes a key; anything much larger is not the file Mino wrote.
    const text = await readPrivateText(file, 256 * KiB);
    if (text === null) return {};
    let parsed: SecretsFile;
    try {
      parsed = SecretsFileSchema.parse(JSON.parse(text));
    } catch {
      throw new Error(`The stored API keys in ${file} are damaged. Remove that file and enter the keys again in Settings → Services.`);
    }
    const keys: Record<string, string> = { ...parsed.services };
    if (parsed.apiKey && keys[LEGACY_KEY_SERVICE] === undefined) keys[LEGACY_KEY_SERVICE] = parsed.apiKey;
    return keys;
  }

  async function writeKeys(keys: Record<string, string>): Promise<void> {
    await ensureMinoHome(homeDir);
    await writePrivateFile(file, `${JSON.stringify({ services: keys })}\n`);
  }

  const store: SecretStore = {
    async getKey(service) {
      const encrypted = (await readKeys())[service];
      if (!encrypted) return null;
      try {
        return safeStorage.decryptString(Buffer.from(encrypted, 'base64'));
      } catch {
        throw new Error(`The stored API key of the service "${service}" cannot be decrypted (the system keyring may have changed). Enter the key again in Settings → Services.`);
      }
    },
    async setKey(service, apiKey) {
      if (!canEncrypt(safeStorage)) throw new Error(noSecureStorageMessage(platform));
      const keys = await readKeys();
      keys[service] = safeStorage.encryptString(apiKey).toString('base64');
      await writeKeys(keys);
    },
    async deleteKey(service) {
      const keys = await readKeys();
      if (keys[service] === undefined) return;
      delete keys[service];
      await writeKeys(keys);
    },
  };
  return store;
}
