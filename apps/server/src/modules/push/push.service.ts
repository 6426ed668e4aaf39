import { createECDH } from 'node:crypto';
import type { PushSubscriptionRequest } from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { PushEndpointPolicy } from './push-endpoints.ts';
import * as repo from './push.repository.ts';

/** Browsers (phones, laptops, profiles) one account receives pushes on; a new one replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

export const PUSH_MESSAGES = {
  endpointNotAllowed:
    "This browser's push service is not one this server sends notifications to. Ask the server's operator to allow it.",
  badKeys: "The subscription's keys are not a browser's push keys.",
} as const;

/** A browser's p256dh key is an uncompressed P-256 point; anything else would fail every push. */
function validKeys(p256dh: string, auth: string): boolean {
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04 || Buffer.from(auth, 'base64url').length !== 16) return false;
  try {
    // Throws for bytes that are not a point on the curve.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

export interface PushServiceDeps {
  db: Database;
  endpoints: PushEndpointPolicy;
}

export function createPushService(deps: PushServiceDeps) {
  const { db, endpoints } = deps;
  return {
    /** Saves this browser's subscription for the caller (the demo account was refused by the route). */
    async subscribe(viewer: AuthContext, body: PushSubscriptionRequest): Promise<void> {
      if (!endpoints.allows(body.endpoint)) throw badRequest(PUSH_MESSAGES.endpointNotAllowed);
      if (!validKeys(body.keys.p256dh, body.keys.auth)) throw badRequest(PUSH_MESSAGES.badKeys);
      await repo.saveSubscription(
        db,
        viewer.userId,
        { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth },
        MAX_SUBSCRIPTIONS_PER_USER,
      );
    },

    /** Forgets the caller's subscription with this endpoint; anyone else's, or none, is left as it is. */
    unsubscribe: (viewer: AuthContext, endpoint: string) =>
      repo.deleteSubscription(db, viewer.userId, endpoint),
  };
}
