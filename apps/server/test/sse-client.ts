import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * A Server-Sent Events reader over a real HTTP connection, parsed as EventSource does (the `id`,
 * `event`, `data` and `retry` fields; `:` comment lines), for the notification stream's tests, the
 * end-to-end tests and the bench. It never reconnects by itself: tests reconnect on purpose.
 */
export interface SseEvent {
  event: string;
  data: string;
  /** The event's own id field, when it had one. */
  id: string | undefined;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** A refusal's body (status other than 200), parsed as JSON when it is. */
  body: unknown;
  /** Every event so far, in order. */
  events: SseEvent[];
  /** Comment lines so far (the heartbeats). */
  comments: number;
  /** EventSource's lastEventId: the last id field seen. */
  lastEventId: string;
  retryMs: number | null;
  /** Settles when the server ends the stream or the connection breaks. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** The next event not yet taken (events are taken in order). */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Waits until `check` holds of the events so far. */
  waitFor(check: (events: SseEvent[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): void;
}

/** One connection per stream, as browsers hold one per EventSource. */
const agent = new Agent({ keepAlive: false });

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolveOpen, rejectOpen) => {
    const req = request(url, { agent, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        events: [],
        comments: 0,
        lastEventId: '',
        retryMs: null,
        ended: new Promise<void>((resolveEnd) => {
          res.once('close', () => {
            ended = true;
            resolveEnd();
            notify();
          });
        }),
        isEnded: () => ended,
        next: (timeoutMs = 5_000) =>
          stream
            .waitFor((events) => events.length > taken, timeoutMs, 'the next event')
            .then(() => stream.events[taken++]!),
        waitFor: (check, timeoutMs = 5_000, what = 'a condition') =>
          new Promise<void>((resolve, reject) => {
            if (check(stream.events)) return resolve();
            const waiter = () => {
              if (!check(stream.events)) {
                if (!ended) return;
                clearTimeout(timer);
                waiters.delete(waiter);
                return reject(new Error(`stream ended before ${what}: ${JSON.stringify(stream.events)}`));
              }
              clearTimeout(timer);
              waiters.delete(waiter);
              resolve();
            };
            const timer = setTimeout(() => {
              waiters.delete(waiter);
              reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(stream.events)}`));
            }, timeoutMs);
            waiters.add(waiter);
          }),
        close: () => {
          req.destroy();
          res.destroy();
        },
      };
      let ended = false;
      let taken = 0;
      const waiters = new Set<() => void>();
      const notify = () => {
        for (const waiter of [...waiters]) waiter();
      };
      res.setEncoding('utf8');
      if (stream.status !== 200) {
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            stream.body = JSON.parse(text);
          } catch {
            stream.body = text;
          }
          resolveOpen(stream);
        });
        res.on('error', rejectOpen);
        return;
      }
      let buffer = '';
      let event: { event: string; data: string[]; id: string | undefined } = {
        event: '',
        data: [],
        id: undefined,
      };
      const line = (text: string) => {
        if (text === '') {
          if (event.data.length > 0) {
            stream.events.push({
              event: event.event || 'message',
              data: event.data.join('\n'),
              id: event.id,
            });
          }
          event = { event: '', data: [], id: undefined };
          return;
        }
        if (text.startsWith(':')) {
          stream.comments += 1;
          return;
        }
        const colon = text.indexOf(':');
        const field = colon < 0 ? text : text.slice(0, colon);
        const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'data') event.data.push(value);
        else if (field === 'id') {
          event.id = value;
          stream.lastEventId = value;
        } else if (field === 'retry' && /^\d+$/.test(value)) stream.retryMs = Number(value);
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let at: number;
        while ((at = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const crlf = buffer.startsWith('\r\n', at);
          line(buffer.slice(0, at));
          buffer = buffer.slice(at + (crlf ? 2 : 1));
        }
        notify();
      });
      res.on('error', () => {});
      resolveOpen(stream);
    });
    req.on('error', rejectOpen);
    req.end();
  });
}

/** The data of an event, parsed. */
export const dataOf = <T>(event: SseEvent): T => JSON.parse(event.data) as T;

/**
 * A request to the notification stream, in process: inject() answers only when a response ends, and a
 * stream does not. Once the stream of the ticket's user is live (its replay and unread count written),
 * the server ends it, and the answer holds those first events. Refusals come back as they are.
 */
export async function injectStream(
  app: FastifyInstance,
  options: InjectOptions,
  userId: string,
): Promise<LightMyRequestResponse> {
  let settled = false;
  const answer = app.inject(options).finally(() => {
    settled = true;
  });
  while (!settled) {
    if (app.notificationStreams.liveCount(userId) > 0) app.notificationStreams.closeUser(userId);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return answer;
}

/** The events of a stream's text (an injected answer's body). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n'))
    .flatMap((lines) => {
      const field = (name: string) =>
        lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
      const data = field('data');
      if (data.length === 0) return [];
      return [{ event: field('event')[0] ?? 'message', data: data.join('\n'), id: field('id')[0] }];
    });
}
