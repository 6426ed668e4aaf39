import pg from 'pg';

/** The first retry after a lost or refused connection; each further one waits twice as long. */
export const LISTEN_RETRY_MS = 1_000;
const LISTEN_RETRY_MAX_MS = 30_000;

export interface Listener {
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/**
 * LISTEN on a PostgreSQL connection of its own (a pool's connections come and go, and a transaction
 * pooler such as PgBouncer does not keep LISTEN: point it at the server directly). The connection is
 * made again after a loss, with growing waits; what is NOTIFYed while it is away is missed, so a
 * caller must not depend on hearing everything: `onResume` is called each time LISTEN holds again
 * after a loss or a failed first try, for the caller to read what it may have missed. Resolves after
 * the first try, whether it worked.
 */
export async function listen(
  connectionString: string,
  channel: string,
  onMessage: (payload: string) => void,
  onError: (error: Error) => void = () => {},
  onResume: () => void = () => {},
): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let current: pg.Client | null = null;
  let closed = false;
  let retryMs = LISTEN_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;
  // Something may have been NOTIFYed that this listener did not hear: set by every loss or failure.
  let missed = false;

  const retry = () => {
    missed = true;
    if (closed) return;
    timer = setTimeout(() => void connect(), retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
  };

  // Whichever of 'end' and a failed connect comes first clears `current` and schedules the one retry.
  const lost = (client: pg.Client) => {
    if (current !== client) return;
    current = null;
    retry();
  };

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3_000 });
    current = client;
    client.on('error', onError);
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) onMessage(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      retryMs = LISTEN_RETRY_MS;
    } catch (err) {
      onError(err as Error);
      lost(client);
      client.end().catch(() => {});
      return;
    }
    if (missed && !closed && current === client) {
      missed = false;
      onResume();
    }
  }

  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
