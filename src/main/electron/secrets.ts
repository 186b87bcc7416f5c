// The API key, encrypted with the operating system's key store (safeStorage)
// into ~/.mino/secrets.json (0600). Refuses to store it where Electron would
// only obfuscate it (Linux without a keyring), and says what to do instead.
import type { SafeStorage } from 'electron';
import { z } from 'zod';
import { ensureMinoHome, minoPaths, writePrivateFile } from '../core/config/minoHome';
import { KiB, readPrivateText } from '../core/config/readPrivateFile';
import type { SecretStore } from '../service/ports';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>;

const SecretsFileSchema = z.object({ apiKey: z.string().optional() });

export const NO_SECURE_STORAGE_MESSAGE =
  'Mino cannot store the API key securely on this system (no keyring is available). Set OPENAI_API_KEY in the environment before starting Mino instead.';

/**
 * On Linux, says which keyrings Mino can use and the switch that picks one:
 * where no Secret Service answers, Electron falls back to a store with a fixed key.
 */
export const NO_KEYRING_ON_LINUX_MESSAGE =
  'Mino cannot store the API key securely: no keyring answered, so Electron fell back to a plain-text store. ' +
  'Start a Secret Service (gnome-keyring, KeePassXC with Secret Service integration, or KWallet) and restart Mino; ' +
  'Mino asks it with --password-store=gnome-libsecret on desktops Electron does not recognise, and you can pick another ' +
  'store yourself (npm start -- --password-store=kwallet6). Or set OPENAI_API_KEY in the environment before starting Mino.';

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
  return {
    async getApiKey() {
      // A few hundred bytes; anything much larger is not the file Mino wrote.
      const text = await readPrivateText(file, 64 * KiB);
      if (text === null) return null;
      let parsed: z.infer<typeof SecretsFileSchema>;
      try {
        parsed = SecretsFileSchema.parse(JSON.parse(text));
      } catch {
        throw new Error(`The stored API key in ${file} is damaged. Enter the key again in Settings.`);
      }
      if (!parsed.apiKey) return null;
      try {
        return safeStorage.decryptString(Buffer.from(parsed.apiKey, 'base64'));
      } catch {
        throw new Error('The stored API key cannot be decrypted (the system keyring may have changed). Enter the key again in Settings.');
      }
    },
    async setApiKey(apiKey) {
      if (!canEncrypt(safeStorage)) throw new Error(noSecureStorageMessage(platform));
      const encrypted = safeStorage.encryptString(apiKey).toString('base64');
      await ensureMinoHome(homeDir);
      await writePrivateFile(file, `${JSON.stringify({ apiKey: encrypted })}\n`);
    },
  };
}
