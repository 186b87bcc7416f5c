// The presets are plain data a person starts from: each must be a service the settings file accepts as it is.
import { describe, expect, it } from 'vitest';
import { SERVICE_PRESETS } from '../../../src/main/core/config/servicePresets';
import { ServiceConfigSchema } from '../../../src/shared/modelServices';

describe('service presets', () => {
  it('are each a valid service, with a unique name, for the eleven services the issue names', () => {
    for (const preset of SERVICE_PRESETS) expect(ServiceConfigSchema.safeParse(preset.service), preset.label).toEqual({ success: true, data: preset.service });
    expect(new Set(SERVICE_PRESETS.map((preset) => preset.service.name)).size).toBe(SERVICE_PRESETS.length);
    expect(SERVICE_PRESETS.map((preset) => preset.label)).toEqual([
      'OpenAI', 'Anthropic', 'OpenRouter', 'Azure OpenAI', 'DeepSeek', 'Groq', 'Gemini (OpenAI-compatible)', 'Ollama', 'LM Studio', 'vLLM', "llama.cpp's server",
    ]);
  });
});
