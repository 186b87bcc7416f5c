// The API key store for the test bridge: memory only, so no test touches a keyring.
import type { SecretStore } from '../../../src/main/service/ports';

export class MemorySecretStore implements SecretStore {
  private apiKey: string | null = null;

  async getApiKey(): Promise<string | null> {
    return this.apiKey;
  }

  async setApiKey(apiKey: string): Promise<void> {
    this.apiKey = apiKey;
  }
}
