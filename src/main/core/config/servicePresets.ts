// Starting points for a new service: the protocol, the documented base URL,
// the variable that usually holds the key, and a model to begin with. The
// person can edit every field; `fill` says what a preset cannot know. Each
// URL is the one its provider documents (the `docs` address), not a guess.
import type { ServiceConfig } from '../../../shared/modelServices';

export interface ServicePreset {
  /** What the person picks from. */
  label: string;
  /** The service as the preset fills it; `name` is a suggestion. */
  service: ServiceConfig;
  /** What the person must still fill in, when the preset cannot know it. */
  fill?: string;
  /** Where the base URL is documented. */
  docs: string;
}

export const SERVICE_PRESETS: readonly ServicePreset[] = [
  {
    label: 'OpenAI',
    service: { name: 'openai', protocol: 'responses', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini', apiKeyEnv: 'OPENAI_API_KEY' },
    docs: 'https://platform.openai.com/docs/api-reference/responses',
  },
  {
    label: 'Anthropic',
    service: { name: 'anthropic', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
    docs: 'https://docs.anthropic.com/en/api/messages',
  },
  {
    label: 'OpenRouter',
    service: { name: 'openrouter', protocol: 'chat', baseUrl: 'https://openrouter.ai/api/v1', model: 'anthropic/claude-sonnet-4.5', apiKeyEnv: 'OPENROUTER_API_KEY' },
    docs: 'https://openrouter.ai/docs/quickstart',
  },
  {
    label: 'Azure OpenAI',
    service: { name: 'azure', protocol: 'responses', baseUrl: 'https://your-resource-name.openai.azure.com/openai/v1', model: 'your-deployment-name', apiKeyEnv: 'AZURE_OPENAI_API_KEY' },
    fill: 'your resource name in the base URL (https://<resource>.openai.azure.com/openai/v1), and as the model the name of your deployment',
    docs: 'https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle',
  },
  {
    label: 'DeepSeek',
    service: { name: 'deepseek', protocol: 'chat', baseUrl: 'https://api.deepseek.com', model: 'deepseek-v4-flash', apiKeyEnv: 'DEEPSEEK_API_KEY' },
    docs: 'https://api-docs.deepseek.com/',
  },
  {
    label: 'Groq',
    service: { name: 'groq', protocol: 'chat', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile', apiKeyEnv: 'GROQ_API_KEY' },
    docs: 'https://console.groq.com/docs/openai',
  },
  {
    label: 'Gemini (OpenAI-compatible)',
    service: { name: 'gemini', protocol: 'chat', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', model: 'gemini-2.5-flash', apiKeyEnv: 'GEMINI_API_KEY' },
    docs: 'https://ai.google.dev/gemini-api/docs/openai',
  },
  {
    label: 'Ollama',
    service: { name: 'ollama', protocol: 'chat', baseUrl: 'http://localhost:11434/v1', model: 'qwen3' },
    fill: 'as the model, one you pulled (ollama list) that supports tool calling',
    docs: 'https://docs.ollama.com/api/openai-compatibility',
  },
  {
    label: 'LM Studio',
    service: { name: 'lmstudio', protocol: 'chat', baseUrl: 'http://localhost:1234/v1', model: 'qwen3' },
    fill: 'as the model, the identifier of one you downloaded in LM Studio, with its server started',
    docs: 'https://lmstudio.ai/docs/app/api/endpoints/openai',
  },
  {
    label: 'vLLM',
    service: { name: 'vllm', protocol: 'chat', baseUrl: 'http://localhost:8000/v1', model: 'served-model' },
    fill: 'as the model, the one vllm serve was started with (started with --enable-auto-tool-choice and a --tool-call-parser, so it can call tools)',
    docs: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
  },
  {
    label: "llama.cpp's server",
    service: { name: 'llamacpp', protocol: 'chat', baseUrl: 'http://localhost:8080/v1', model: 'local' },
    fill: 'nothing needed for the model (llama-server answers with the one it loaded); start it with --jinja so it can call tools',
    docs: 'https://github.com/ggml-org/llama.cpp/tree/master/tools/server',
  },
];
