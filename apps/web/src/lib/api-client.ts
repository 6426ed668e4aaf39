import type { TokenResponse } from '@cats/contracts';
import { authStore } from './auth-store.ts';
import { takeRefresh } from './early-requests.ts';
import { currentLanguage, translate } from '../i18n/i18n-store.ts';

/**
 * The one HTTP client (spec section 7): JSON with credentials, same origin, bearer token from memory,
 * one refresh-and-retry when the server says the token is invalid, requests aborted through `signal`
 * when the screen unmounts.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status, or null when the server could not be reached. */
    public readonly status: number | null,
    message: string,
    public readonly headers?: Headers,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get isNetworkError(): boolean {
    return this.status === null;
  }
}

/** Spec section 8: the server could not be reached (English; noServerResponse() in the reader's language). */
export const NO_SERVER_RESPONSE = 'No Server Response';

/** The server could not be reached, in the reader's language: the message of a network ApiError. */
export const noServerResponse = (): string =>
  translate({ id: 'errors.noServerResponse', defaultMessage: 'No Server Response' });

/** An answer without a {message} of its own (a proxy's error page), in the reader's language. */
const requestFailed = (status: number): string =>
  translate(
    { id: 'errors.requestFailed', defaultMessage: 'Request failed with status {status}' },
    { status: String(status) },
  );

type SessionExpiredListener = () => void;
const sessionExpiredListeners = new Set<SessionExpiredListener>();
/** Called when a refresh could not rescue a request: the app sends the user to /login. */
export function onSessionExpired(listener: SessionExpiredListener): () => void {
  sessionExpiredListeners.add(listener);
  return () => sessionExpiredListeners.delete(listener);
}

let refreshing: Promise<TokenResponse> | null = null;

/** GET /api/refresh, shared by concurrent callers so that one rotation serves them all. */
export function refreshSession(): Promise<TokenResponse> {
  refreshing ??= (async () => {
    try {
      let res: Response;
      try {
        // Started by boot.ts while the bundle downloaded, when the page had a remembered session.
        res = await takeRefresh();
      } catch {
        // No network (issue 28): an ApiError without status, so that no caller takes it for an
        // expired session and logs the person out.
        throw new ApiError(null, noServerResponse());
      }
      if (!res.ok) throw new ApiError(res.status, await readMessage(res), res.headers);
      const data = (await res.json()) as TokenResponse;
      authStore.set({ accessToken: data.accessToken, userId: data.userId });
      return data;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function readMessage(res: Response): Promise<string> {
  try {
    const body = (await res.clone().json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    /* not JSON */
  }
  return res.statusText || requestFailed(res.status);
}

/** The server marks token problems (not permission refusals) with RFC 6750's invalid_token. */
const isTokenProblem = (res: Response) =>
  res.status === 401 ||
  (res.status === 403 && /invalid_token/.test(res.headers.get('www-authenticate') ?? ''));

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send no token and never refresh: for login, sign-up and logout, where 401 means wrong credentials. */
  anonymous?: boolean;
}

/**
 * The language the server writes its {message}s in (it translates them by Accept-Language, decision
 * 017): the language the screens are in (issue 28), so that a refusal reads like the screen around it.
 */
const uiLanguage = (): string => currentLanguage();

function buildInit(options: RequestOptions, token: string | null): RequestInit {
  const headers: Record<string, string> = { 'accept-language': uiLanguage() };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return { method: options.method ?? 'GET', headers, body, credentials: 'include', signal: options.signal };
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  try {
    return await fetch(path, buildInit(options, token));
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(null, noServerResponse());
  }
}

/** Sends with the access token, refreshing it once on a token problem; throws ApiError unless 2xx. */
async function authorised(path: string, options: RequestOptions): Promise<Response> {
  let res = await send(path, options, options.anonymous ? null : authStore.get().accessToken);
  if (!options.anonymous && isTokenProblem(res) && !authStore.loggedOut()) {
    try {
      const { accessToken } = await refreshSession();
      res = await send(path, options, accessToken);
    } catch (err) {
      if (err instanceof ApiError && err.isNetworkError) throw err;
      authStore.clear();
      sessionExpiredListeners.forEach((l) => l());
      throw new ApiError(403, 'Your session has expired, please log in again');
    }
    if (isTokenProblem(res)) {
      authStore.clear();
      sessionExpiredListeners.forEach((l) => l());
    }
  }
  if (!res.ok) throw new ApiError(res.status, await readMessage(res), res.headers);
  return res;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await authorised(path, options);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A file the API answers only with the bearer token (a data export), as a Blob: a plain link cannot
 * send the token. The browser keeps a large Blob on disk rather than in the page's memory.
 */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  return (await authorised(path, options)).blob();
}

/**
 * Multipart upload with real progress (fetch cannot report upload progress, XMLHttpRequest can),
 * with the same refresh-once rule as `api`.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  opts: {
    method?: 'POST' | 'PUT';
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const attempt = (token: string | null) =>
    new Promise<{ status: number; body: string; wwwAuthenticate: string | null }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(opts.method ?? 'POST', path);
      xhr.withCredentials = true;
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      xhr.setRequestHeader('accept-language', uiLanguage());
      for (const [name, value] of Object.entries(opts.headers ?? {})) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) opts.onProgress?.(e.loaded / e.total);
      };
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          body: xhr.responseText,
          wwwAuthenticate: xhr.getResponseHeader('www-authenticate'),
        });
      xhr.onerror = () => reject(new ApiError(null, noServerResponse()));
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
  const tokenProblem = (r: { status: number; wwwAuthenticate: string | null }) =>
    r.status === 401 || (r.status === 403 && /invalid_token/.test(r.wwwAuthenticate ?? ''));
  return (async () => {
    let result = await attempt(authStore.get().accessToken);
    if (tokenProblem(result) && !authStore.loggedOut()) {
      try {
        const { accessToken } = await refreshSession();
        result = await attempt(accessToken);
      } catch (err) {
        // As in `authorised`: no network is not an expired session.
        if (err instanceof ApiError && err.isNetworkError) throw err;
        authStore.clear();
        sessionExpiredListeners.forEach((l) => l());
        throw new ApiError(403, 'Your session has expired, please log in again');
      }
    }
    let parsed: unknown;
    try {
      parsed = result.body ? JSON.parse(result.body) : undefined;
    } catch {
      parsed = undefined;
    }
    if (result.status < 200 || result.status >= 300) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new ApiError(result.status, typeof message === 'string' ? message : requestFailed(result.status));
    }
    return parsed as T;
  })();
}
