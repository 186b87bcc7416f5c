// The API key store for the test bridge: memory only, so no test touches a keyring.
import type { SecretStore } from '../../../src/main/service/ports';

export class MemorySecretStore implements SecretStore {
  private readonly keys = new Map<string, string>();

  async getKey(service: string): Promise<string | null> {
    return this.keys.get(service) ?? null;
  }

  async setKey(service: string, apiKey: string): Promise<void> {
    this.keys.set(service, apiKey);
  }

  async deleteKey(service: string): Promise<void> {
    this.keys.delete(service);
  }
}
