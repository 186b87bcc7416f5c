import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore, NO_SECURE_STORAGE_MESSAGE, type SafeStorageLike } from '../../../src/main/electron/secrets';

let home: string;

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-secrets-'));
});

afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

/** Stands in for the OS keyring: a reversible transform, so the file never holds the plain key. */
function fakeSafeStorage(overrides: Partial<SafeStorageLike> = {}): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: (plain: string) => Buffer.from(`enc:${[...plain].reverse().join('')}`),
    decryptString: (encrypted: Buffer) => {
      const text = encrypted.toString();
      if (!text.startsWith('enc:')) throw new Error('bad data');
      return [...text.slice(4)].reverse().join('');
    },
    getSelectedStorageBackend: () => 'gnome_libsecret',
    ...overrides,
  };
}

describe('the safeStorage secret store', () => {
  it('stores the key encrypted in ~/.mino/secrets.json (0600, in a 0700 directory) and reads it back', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), home);
    expect(await store.getKey('default')).toBeNull();
    await store.setKey('default', 'sk-live-secret');
    const file = path.join(home, '.mino', 'secrets.json');
    expect(await fs.readFile(file, 'utf8')).not.toContain('sk-live-secret');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(home, '.mino'))).mode & 0o777).toBe(0o700);
    expect(await store.getKey('default')).toBe('sk-live-secret');
  });

  it.each([
    ['encryption is unavailable', { isEncryptionAvailable: () => false }],
    ['Linux has no keyring (basic_text)', { getSelectedStorageBackend: () => 'basic_text' as const }],
  ])('refuses to store a key when %s, and says to set the key in the environment', async (_case, overrides) => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(overrides), home, 'darwin');
    await expect(store.setKey('default', 'sk-live-secret')).rejects.toThrow(NO_SECURE_STORAGE_MESSAGE);
    await expect(fs.access(path.join(home, '.mino', 'secrets.json'))).rejects.toThrow();
  });

  it('on Linux, names the keyrings it can use and the --password-store switch when none answered', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage({ getSelectedStorageBackend: () => 'basic_text' as const }), home, 'linux');
    const refusal = store.setKey('default', 'sk-live-secret');
    await expect(refusal).rejects.toThrow(/no keyring answered/);
    await expect(refusal).rejects.toThrow(/--password-store=gnome-libsecret/);
    await expect(refusal).rejects.toThrow(/OPENAI_API_KEY/);
    await expect(fs.access(path.join(home, '.mino', 'secrets.json'))).rejects.toThrow();
  });

  it('reports a key it cannot decrypt and asks for it again', async () => {
    await fs.mkdir(path.join(home, '.mino'), { recursive: true });
    await fs.writeFile(path.join(home, '.mino', 'secrets.json'), JSON.stringify({ apiKey: Buffer.from('garbage').toString('base64') }));
    const store = createSafeStorageSecretStore(fakeSafeStorage(), home);
    await expect(store.getKey('default')).rejects.toThrow('Enter the key again in Settings → Services');
  });

  it('refuses a secrets.json that is a FIFO at once, naming it, instead of waiting for a writer', async () => {
    await fs.mkdir(path.join(home, '.mino'), { recursive: true });
    const file = path.join(home, '.mino', 'secrets.json');
    execFileSync('mkfifo', [file]);
    const store = createSafeStorageSecretStore(fakeSafeStorage(), home);
    try {
      await expect(store.getKey('default')).rejects.toThrow(/secrets\.json is a named pipe \(FIFO\), not a regular file/);
    } finally {
      // Releases a reader that did block (the bug this guards against).
      (await fs.open(file, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => null))?.close();
    }
  });

  it('keeps one key per service, each encrypted, and forgets only the one deleted', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), home);
    await store.setKey('groq', 'gsk-groq-secret');
    await store.setKey('claude', 'sk-ant-secret');
    const file = path.join(home, '.mino', 'secrets.json');
    const text = await fs.readFile(file, 'utf8');
    expect(text).not.toContain('gsk-groq-secret');
    expect(text).not.toContain('sk-ant-secret');
    expect(await store.getKey('groq')).toBe('gsk-groq-secret');
    expect(await store.getKey('claude')).toBe('sk-ant-secret');
    expect(await store.getKey('ollama')).toBeNull();
    await store.deleteKey('groq');
    expect(await store.getKey('groq')).toBeNull();
    expect(await store.getKey('claude')).toBe('sk-ant-secret');
    await store.deleteKey('never-stored');
    expect(await store.getKey('claude')).toBe('sk-ant-secret');
  });

  it("reads the single key of older versions as the default service's, and keeps it when another service's key is stored", async () => {
    const safe = fakeSafeStorage();
    await fs.mkdir(path.join(home, '.mino'), { recursive: true, mode: 0o700 });
    const file = path.join(home, '.mino', 'secrets.json');
    await fs.writeFile(file, JSON.stringify({ apiKey: safe.encryptString('sk-old-single').toString('base64') }), { mode: 0o600 });
    const store = createSafeStorageSecretStore(safe, home);
    expect(await store.getKey('default')).toBe('sk-old-single');
    expect(await store.getKey('groq')).toBeNull();
    await store.setKey('groq', 'gsk-new');
    expect(await store.getKey('default')).toBe('sk-old-single');
    expect(await store.getKey('groq')).toBe('gsk-new');
    // Moved under its service's name by that write.
    expect(Object.keys(JSON.parse(await fs.readFile(file, 'utf8')).services).sort()).toEqual(['default', 'groq']);
  });
});
