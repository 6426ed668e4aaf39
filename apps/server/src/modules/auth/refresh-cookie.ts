import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

/**
 * The refresh token travels only in this cookie: httpOnly (no script can read it), SameSite=Strict (no
 * cross-site request carries it) and, when the app is served over https, Secure with the __Host- prefix
 * (the browser then refuses it from plain http, for another path or from a subdomain).
 */
export function refreshCookieName(config: Config): string {
  return isSecure(config) ? '__Host-jwt' : 'jwt';
}

export const isSecure = (config: Config) => config.PUBLIC_URL?.startsWith('https:') ?? false;

/** Shared with the device cookie (device-cookie.ts). */
export function cookieOptions(config: Config): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure: isSecure(config), path: '/' };
}

export function readRefreshCookie(request: FastifyRequest, config: Config): string | undefined {
  const value = request.cookies[refreshCookieName(config)];
  return value ? value : undefined;
}

export function setRefreshCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(refreshCookieName(config), token, { ...cookieOptions(config), maxAge });
}

export function clearRefreshCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(refreshCookieName(config), cookieOptions(config));
}
