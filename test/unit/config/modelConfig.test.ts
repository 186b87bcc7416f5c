import { describe, expect, it } from 'vitest';
import { resolveModelConfig } from '../../../src/main/core/config/modelConfig';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

describe('model configuration', () => {
  it('takes the stream idle timeout from the settings (seconds) and hands it to the client in milliseconds', () => {
    expect(DEFAULT_SETTINGS.streamIdleTimeout).toBe(120);
    const config = resolveModelConfig({ settings: { ...DEFAULT_SETTINGS, streamIdleTimeout: 45 }, env: { OPENAI_API_KEY: 'k' } });
    expect(config.streamIdleTimeoutMs).toBe(45_000);
  });
});
