import { describe, expect, it } from 'vitest';
import { resolveService } from '../../../src/main/core/config/modelConfig';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

describe('model configuration', () => {
  it('takes the stream idle timeout from the settings (seconds) and hands it to the client in milliseconds', async () => {
    expect(DEFAULT_SETTINGS.streamIdleTimeout).toBe(120);
    const { client } = await resolveService({}, { settings: { ...DEFAULT_SETTINGS, streamIdleTimeout: 45 }, env: { OPENAI_API_KEY: 'k' } });
    expect(client.streamIdleTimeoutMs).toBe(45_000);
  });

  it('takes the organization and project from OPENAI_ORG_ID and OPENAI_PROJECT_ID, as the openai SDK did, and none when unset', async () => {
    const scoped = await resolveService({}, { settings: DEFAULT_SETTINGS, env: { OPENAI_API_KEY: 'k', OPENAI_ORG_ID: ' org_1 ', OPENAI_PROJECT_ID: 'proj_1' } });
    expect(scoped.client).toMatchObject({ organization: 'org_1', project: 'proj_1' });
    const plain = await resolveService({}, { settings: DEFAULT_SETTINGS, env: { OPENAI_API_KEY: 'k' } });
    expect('organization' in plain.client || 'project' in plain.client).toBe(false);
  });
});
