import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';

/** Who a moderation outcome is told to, and as what (add_moderation_notification, migration 0023). */
export type ModerationNoticeType = 'moderation_decision' | 'appeal_decided' | 'report_outcome';

/**
 * Everything one module does that another reacts to, with what the reactions need (issue 47). The
 * acting module emits; the reacting module subscribes where the app is put together (app.ts), so the
 * actor never imports it. Immich's event map is the model: one typed map, handlers on the modules that
 * care.
 *
 * Every event here happens inside its cause's transaction and carries it as `tx`: handlers write in
 * that transaction, so what they write commits or rolls back with the cause. A notification written so
 * is announced after the commit, as every notification is (decision 010).
 */
export interface AppEvents {
  /** A post was shared with groups, at its creation or later: their other members are told. */
  'post.shared': { tx: Executor; postId: string; authorId: string; groupIds: readonly string[] };
  /** A post stopped being shared with groups: what told their members of it goes. */
  'post.unshared': { tx: Executor; postId: string; groupIds: readonly string[] };
  /** Someone asked to join a group: its owner is told. */
  'group.joinRequested': { tx: Executor; groupId: string; ownerId: string; requesterId: string };
  /** The requester withdrew their request: the owner's entry about it goes. */
  'group.joinRequestWithdrawn': { tx: Executor; groupId: string; requesterId: string };
  /** The owner accepted or declined a request: its entry goes, and the requester hears the answer. */
  'group.joinRequestAnswered': {
    tx: Executor;
    groupId: string;
    ownerId: string;
    requesterId: string;
    accepted: boolean;
  };
  /**
   * A member left a group or its owner removed them (`removedBy`: the owner, or the member themself).
   * Their shares went with the membership, and so do the entries that told the others about them.
   */
  'group.memberRemoved': { tx: Executor; groupId: string; memberId: string; removedBy: string };
  /** A moderator's decision, its undoing, or an appeal's outcome concerns this person. */
  'moderation.outcome': { tx: Executor; recipientId: string; type: ModerationNoticeType; actionId: string };
}

export type EventName = keyof AppEvents;
export type EventHandler<K extends EventName> = (payload: AppEvents[K]) => Promise<void> | void;

/** A small in-process event bus: handlers run one after the other, in the order they subscribed. */
export class EventBus {
  readonly #handlers = new Map<EventName, EventHandler<never>[]>();

  /** Runs `handler` on every `name` from now on; returns the function that stops it. */
  on<K extends EventName>(name: K, handler: EventHandler<K>): () => void {
    const list = (this.#handlers.get(name) ?? []) as EventHandler<K>[];
    list.push(handler);
    this.#handlers.set(name, list as EventHandler<never>[]);
    return () => {
      const at = list.indexOf(handler);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Runs every handler of `name` and waits for them. A handler that throws fails the emit, and with it
   * the cause's transaction: a reaction that must commit with its cause cannot be silently lost.
   */
  async emit<K extends EventName>(name: K, payload: AppEvents[K]): Promise<void> {
    const list = this.#handlers.get(name) as EventHandler<K>[] | undefined;
    if (!list) return;
    for (const handler of [...list]) await handler(payload);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventBus;
  }
}

/** One bus per app instance, as `app.events`: modules emit on it, subscribers register on it. */
export const eventsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('events', new EventBus());
  },
  { name: 'events' },
);
