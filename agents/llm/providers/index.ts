/**
 * The provider APIs by name. Each is imported when an episode starts, so that the package (and an
 * experiment that uses one API) never loads the other SDKs.
 */
import type { Provider, ProviderSettings } from './provider.ts';

export const API_NAMES = ['chat', 'responses', 'anthropic'] as const;
export type ApiName = (typeof API_NAMES)[number];

/** `responses` for OpenAI's own API (where it is the current one), `chat` for every compatible server. */
export function defaultApi(baseUrl: string | undefined): ApiName {
  const url = baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  // A variable that is no URL names no OpenAI host; the SDK says what is wrong with it when called.
  return URL.canParse(url) && new URL(url).hostname === 'api.openai.com' ? 'responses' : 'chat';
}

/** The environment variable an API's key is read from when params.api_key is absent. */
export function keyVariable(api: ApiName): string {
  return api === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

export async function loadProvider(api: ApiName, settings: ProviderSettings): Promise<Provider> {
  switch (api) {
    case 'chat':
      return (await import('./chat.ts')).createChatProvider(settings);
    case 'responses':
      return (await import('./responses.ts')).createResponsesProvider(settings);
    case 'anthropic':
      return (await import('./anthropic.ts')).createAnthropicProvider(settings);
  }
}
