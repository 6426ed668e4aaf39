import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { pushSubscriptions, webPushKeys } from '../../db/schema/index.ts';

export interface SubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Saves a browser's subscription for the user. The endpoint names one browser profile: saved again, it
 * moves to whoever saved it last (a shared computer where someone else signed in) and counts as new.
 * Then the user's subscriptions beyond the newest `keep` go, in the same transaction.
 */
export async function saveSubscription(
  db: Database,
  userId: string,
  subscription: { endpoint: string; p256dh: string; auth: string },
  keep: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({ userId, ...subscription })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId: sql`excluded.user_id`,
          p256dh: sql`excluded.p256dh`,
          auth: sql`excluded.auth`,
          createdAt: sql`now()`,
        },
      });
    await tx.execute(sql`
      delete from push_subscriptions where id in (
        select id from push_subscriptions where user_id = ${userId}
        order by created_at desc, id desc offset ${keep})`);
  });
}

/** Removes the user's subscription with this endpoint (someone else's stays). */
export async function deleteSubscription(ex: Executor, userId: string, endpoint: string): Promise<void> {
  await ex
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Removes a subscription the push service says is gone (404, 410). */
export async function deleteSubscriptionById(ex: Executor, id: string): Promise<void> {
  await ex.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export function listSubscriptions(ex: Executor, userId: string): Promise<SubscriptionRow[]> {
  return ex
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
}

/**
 * Claims the push of the recipient's entry with event number `seq`, for this instance alone: every
 * instance hears the same NOTIFY and runs this, and the row lock makes the others re-check
 * `push_sent_seq` after the first one's commit and find nothing to claim. Nothing is claimed (so
 * nothing is written) unless the recipient has a subscription and has not switched push off for the
 * entry's type; an entry that has moved on to a later seq is the later event's to send.
 */
export async function claimPush(ex: Executor, recipientId: string, seq: number): Promise<boolean> {
  const rows = rowsOf(
    await ex.execute(sql`
      update notifications n set push_sent_seq = n.seq
      where n.recipient_id = ${recipientId} and n.seq = ${seq}
        and (n.push_sent_seq is null or n.push_sent_seq < n.seq)
        and exists (select 1 from push_subscriptions s where s.user_id = n.recipient_id)
        and not exists (
          select 1 from notification_preferences p
          where p.user_id = n.recipient_id and p.type = n.type and not p.push)
      returning n.id`),
  );
  return rows.length > 0;
}

export async function readStoredKeys(
  ex: Executor,
): Promise<{ publicKey: string; privateKey: string } | null> {
  const [row] = await ex
    .select({ publicKey: webPushKeys.publicKey, privateKey: webPushKeys.privateKey })
    .from(webPushKeys)
    .where(eq(webPushKeys.id, 1));
  return row ?? null;
}

/** Stores the key pair unless one is stored already (the first instance wins). */
export async function storeKeys(
  ex: Executor,
  keys: { publicKey: string; privateKey: string },
): Promise<void> {
  await ex
    .insert(webPushKeys)
    .values({ id: 1, ...keys })
    .onConflictDoNothing();
}
