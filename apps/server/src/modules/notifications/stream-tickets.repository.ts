import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { streamTicketUses } from '../../db/schema/index.ts';

/**
 * Records the use of a stream ticket; false when it was used already, on this instance or another
 * (the primary key decides between two uses at the same moment). The same statement forgets uses of
 * tickets expired for a while (a margin for clocks that differ between instances and the database):
 * the expiry refuses those by itself.
 */
export async function useStreamTicket(ex: Executor, nonce: string, expiresAt: Date): Promise<boolean> {
  const result = await ex.execute(sql`
    with forgotten as (
      delete from ${streamTicketUses} where expires_at < now() - interval '10 minutes'
    )
    insert into ${streamTicketUses} (nonce, expires_at) values (${nonce}, ${expiresAt.toISOString()})
    on conflict (nonce) do nothing
    returning nonce`);
  return rowsOf(result).length === 1;
}
