import { DEMO_DISABLED_MESSAGE } from '@cats/contracts';

/** An error whose message is safe to show to the client; the error handler answers {message}. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * A 429 from one of the rate limits, named for the metrics' refusal counter (modules/metrics): a fixed
 * name such as `login` or `writes`, never a user or an address.
 */
export class RateLimitError extends HttpError {
  constructor(
    public readonly limit: string,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(429, message, headers);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Unauthorized', headers: Record<string, string> = {}) =>
  new HttpError(401, message, headers);
export const forbidden = (message = 'Forbidden', headers: Record<string, string> = {}) =>
  new HttpError(403, message, headers);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const demoDisabled = () => new HttpError(403, DEMO_DISABLED_MESSAGE);
