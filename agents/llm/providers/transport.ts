/**
 * How a provider's SDK reaches the model server: undici's fetch with an Agent of the same package, as
 * both SDKs document for a dispatcher (`fetch` and `fetchOptions: { dispatcher }`); a dispatcher only
 * works with the fetch of its own undici, and Node's built-in fetch bundles another version.
 *
 * The Agent's own limits follow request_timeout_seconds. Left at undici's defaults (300 s for the
 * headers and between body chunks), they would end a longer call before the SDK's timeout, whatever
 * the setting said.
 */
import { Agent, fetch } from 'undici';

/** The dispatcher's type as the SDKs declare it: the built-in fetch's (undici-types), not this undici's own. */
type SdkDispatcher = NonNullable<globalThis.RequestInit['dispatcher']>;

export interface DispatcherTimeouts {
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
}

/** The dispatcher's limits for a request timeout: the same, so that the setting is the one that binds. */
export function dispatcherTimeouts(requestTimeoutMs: number): DispatcherTimeouts {
  return { headersTimeout: requestTimeoutMs, bodyTimeout: requestTimeoutMs };
}

/** What an SDK client is given, and how to let its connections go when the episode ends. */
export interface ModelTransport {
  readonly options: { readonly fetch: typeof globalThis.fetch; readonly fetchOptions: { readonly dispatcher: SdkDispatcher } };
  close(): Promise<void>;
}

export function modelTransport(requestTimeoutMs: number): ModelTransport {
  const dispatcher = new Agent(dispatcherTimeouts(requestTimeoutMs));
  return {
    // The two declarations differ only in naming each package's own classes (FormData, Headers).
    options: { fetch: fetch as unknown as typeof globalThis.fetch, fetchOptions: { dispatcher: dispatcher as unknown as SdkDispatcher } },
    // No call of the episode is wanted after its end: whatever is still open is dropped, not awaited.
    close: () => dispatcher.destroy(),
  };
}
