import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '@cats/contracts';
import type { Config } from '../../config.ts';
import { cookieOptions, isSecure } from './refresh-cookie.ts';

/**
 * A browser that logged in to an account gets a signed device cookie for it (issue 23). The account's
 * login lock, which anyone who knows the email can trigger, does not stop a right password that comes
 * with it; its own wrong passwords are counted per device under the same rule, so the cookie is no
 * unlimited-guess pass (auth.service.ts). Like the refresh cookie: httpOnly, SameSite=Strict and, over
 * https, __Host-. It names one account: a browser shared by two accounts keeps the last one's.
 */
export const DEVICE_COOKIE_TTL_SECONDS = 365 * 24 * 60 * 60;

export interface Device {
  userId: string;
  deviceId: string;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** `<userId>.<deviceId>.<expiry, epoch seconds>.<HMAC of the three>`; the expiry is checked, not only the browser's. */
export function signDevice(key: Buffer, device: Device, expiresAt: Date): string {
  const payload = `${device.userId}.${device.deviceId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The device a cookie value names, if it is signed with our key, unexpired and for this account. */
export function readDevice(key: Buffer, value: string | undefined, userId: string, now: Date): Device | null {
  const parts = value?.split('.');
  if (parts?.length !== 4) return null;
  const [cookieUser, deviceId, expires, signature] = parts as [string, string, string, string];
  if (cookieUser !== userId || !isUuid(deviceId) || !/^\d{1,12}$/.test(expires)) return null;
  if (Number(expires) * 1000 <= now.getTime()) return null;
  const expected = mac(key, `${cookieUser}.${deviceId}.${expires}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, deviceId };
}

export function deviceCookieName(config: Config): string {
  return isSecure(config) ? '__Host-device' : 'device';
}

export function readDeviceCookie(request: FastifyRequest, config: Config): string | undefined {
  return request.cookies[deviceCookieName(config)] || undefined;
}

export function setDeviceCookie(reply: FastifyReply, config: Config, value: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(deviceCookieName(config), value, { ...cookieOptions(config), maxAge });
}
