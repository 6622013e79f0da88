/** docs/protocol.md §6: error codes and the error every layer throws for them. */
import { ArcbenchError } from '../errors.ts';

export const API_ERROR_CODES = ['VALIDATION_ERROR', 'SERVER_ERROR', 'GAME_NOT_STARTED_ERROR', 'RATE_LIMIT_EXCEEDED', 'UNAUTHORIZED'] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The wire body of every error answer. */
export interface ApiErrorBody {
  error: ApiErrorCode | string;
  message: string;
}

/**
 * A typed error of the service: HTTP status, code and a sentence for the user. The reference service
 * throws it, the HTTP server turns it into `{error, message}`, and HttpTransport turns such a body back
 * into it, so callers handle one error type whatever the transport.
 */
export class ApiError extends ArcbenchError {
  readonly status: number;
  /** The service's own code (docs/protocol.md §6), which is as stable as the API. */
  declare readonly code: ApiErrorCode | string;
  /** Seconds to wait before retrying, from `Retry-After`, when the answer carried one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: ApiErrorCode | string, message: string, retryAfterSeconds?: number) {
    super(code, message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  toBody(): ApiErrorBody {
    return { error: this.code, message: this.message };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export const validationError = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);
export const unauthorized = (message = 'missing or unknown X-API-Key header; send the key you were given') => new ApiError(401, 'UNAUTHORIZED', message);
export const gameNotStarted = (message: string) => new ApiError(400, 'GAME_NOT_STARTED_ERROR', message);
