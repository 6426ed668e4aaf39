import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  notificationStreamQuerySchema,
  STREAM_TICKET_SECONDS,
  streamTicketResponseSchema,
} from '@cats/contracts';
import { badRequest, unauthorized } from '../../lib/http-errors.ts';
import { caller, requireAuth } from '../../plugins/auth.ts';
import { noStore } from '../../plugins/private-answers.ts';
import { readStreamTicket, signStreamTicket } from './stream-ticket.ts';
import { useStreamTicket } from './stream-tickets.repository.ts';

const tags = ['notifications'];

export const NOTIFICATION_STREAM_MESSAGES = {
  ticketRequired: 'A stream ticket is required: take one from POST /api/notifications/stream-ticket',
  ticketInvalid: 'This stream ticket is invalid or has expired: take a new one',
  ticketUsed: 'This stream ticket was already used: take a new one for each connection',
  ticketRevoked: 'This stream ticket was taken before the password was changed: take a new one',
  badLastEventId: 'Last-Event-ID must be an event id this stream sent',
} as const;

/** Event ids are seqs: positive integers, sent as decimal text. */
function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  if (!/^\d{1,15}$/.test(value)) throw badRequest(NOTIFICATION_STREAM_MESSAGES.badLastEventId);
  return Number(value);
}

/**
 * Live notifications (issue 25): a ticket taken with the access token, then the Server-Sent Events
 * stream it opens (protocol: notificationStreamQuerySchema in the contracts). The stream route is
 * outside requireAuth: EventSource sends no Authorization header, and the ticket is its credential,
 * good for one stream.
 */
export const notificationStreamRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = app.sessionKeys.streamTicket;

  app.post(
    '/notifications/stream-ticket',
    {
      onRequest: requireAuth,
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: `A ticket that opens the caller's notification stream for ${STREAM_TICKET_SECONDS} s`,
        response: { 200: streamTicketResponseSchema },
      },
    },
    // The demo account may take one: a stream only reads.
    async (request) => {
      const { userId, sessionGeneration } = caller(request);
      // Set by requireAuth, which also checked it is the account's current one.
      if (sessionGeneration === undefined) throw unauthorized();
      return {
        ticket: signStreamTicket(
          key,
          { userId, generation: sessionGeneration },
          new Date(Date.now() + STREAM_TICKET_SECONDS * 1000),
        ),
        expiresIn: STREAM_TICKET_SECONDS,
      };
    },
  );

  app.get(
    '/notifications/stream',
    {
      // Refusals too: an answer about a user's stream is theirs.
      onSend: noStore,
      schema: {
        tags,
        security: [{ streamTicket: [] }],
        summary:
          'Server-Sent Events: the replay after Last-Event-ID, then new and changed notifications, removals and the unread count',
        querystring: notificationStreamQuerySchema,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const { ticket } = request.query;
      if (!ticket) throw unauthorized(NOTIFICATION_STREAM_MESSAGES.ticketRequired);
      const read = readStreamTicket(key, ticket, new Date());
      if (!read) throw unauthorized(NOTIFICATION_STREAM_MESSAGES.ticketInvalid);
      const { userId } = read;
      // EventSource sends the header on its own reconnects; a new EventSource can only use the query.
      const header = request.headers['last-event-id'];
      const after = parseLastEventId(typeof header === 'string' ? header : request.query.lastEventId);
      // A ticket taken before its account was deleted or suspended opens nothing, nor one taken before
      // a password change or reset (issue 46): the auth plugin's lookup, at most LIVE_USER_TTL_MS old
      // and forgotten at once when the change commits, reads both. Asked before the ticket's use is
      // recorded, so a refused ticket costs no write.
      const current = await app.liveUsers.generation(userId);
      if (current === null) throw unauthorized(NOTIFICATION_STREAM_MESSAGES.ticketInvalid);
      if (current !== read.generation) throw unauthorized(NOTIFICATION_STREAM_MESSAGES.ticketRevoked);
      // One stream per ticket, across instances (issue 46): the web client takes a new one per connection.
      if (!(await useStreamTicket(app.database.db, read.nonce, read.expiresAt)))
        throw unauthorized(NOTIFICATION_STREAM_MESSAGES.ticketUsed);
      await app.notificationStreams.open(userId, after, reply);
      return reply;
    },
  );
};
