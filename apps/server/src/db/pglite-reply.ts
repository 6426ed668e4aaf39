/**
 * Reads the database's reply to one executed statement (the bytes of PostgreSQL's wire protocol, as
 * rawReply collects them) into the Results that PGlite's query() would give.
 *
 * PGlite's own path decodes every message into an object and copies every field into a new
 * ArrayBuffer before decoding its text: under the feed's load that was a sixth of the database
 * thread's time (docs/performance.md, "Feed on PGlite"). Here each field is read as text straight from
 * the reply, and only the four messages a statement's result is made of are looked at. An error reply
 * (rare) goes through PGlite's own parser, so its DatabaseError has the same fields as before.
 */
import { protocol, type PGlite, type Results } from '@electric-sql/pglite';

/**
 * Runs protocol messages and gives back the database's reply unread. execProtocolRaw would still
 * parse the reply into messages, and keep them until the next execProtocol call; the streaming form
 * only hands over the bytes, which are copied out of PostgreSQL's memory as they come.
 */
export async function rawReply(pg: PGlite, message: Uint8Array): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await pg.execProtocolRawStream(message, {
    syncToFs: false,
    onRawData: (bytes) => chunks.push(bytes.slice()),
  });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** A type's parser, as PGlite keeps them by type OID. */
export type ReplyParsers = Record<number | string, (text: string, typeId?: number) => unknown>;

// Backend message codes (https://www.postgresql.org/docs/current/protocol-message-formats.html).
const ROW_DESCRIPTION = 0x54; // 'T'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'
const NOTIFICATION_RESPONSE = 0x41; // 'A'
/** Commands whose tag ends in the number of rows they changed, as PGlite counts affectedRows. */
const CHANGING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The result of the one statement a reply answers: rows as objects (PGlite's default) or as arrays,
 * each field through `parsers` by its type (left as text when it has none). Throws the database's
 * error if the reply holds one.
 */
export function readReply(reply: Uint8Array, parsers: ReplyParsers, rowMode?: 'array' | 'object'): Results {
  const bytes = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  const asArrays = rowMode === 'array';
  let fields: { name: string; dataTypeID: number }[] = [];
  let fieldParsers: (ReplyParsers[number] | undefined)[] = [];
  let rows: Results['rows'] = [];
  let result: Results | undefined;
  let affectedRows = 0;
  let offset = 0;
  while (offset + 5 <= bytes.length) {
    const code = bytes[offset]!;
    // The length counts itself but not the code.
    const end = offset + 1 + bytes.readUInt32BE(offset + 1);
    let at = offset + 5;
    switch (code) {
      case ROW_DESCRIPTION: {
        const count = bytes.readUInt16BE(at);
        at += 2;
        fields = [];
        for (let i = 0; i < count; i += 1) {
          const nameEnd = bytes.indexOf(0, at);
          const name = bytes.toString('utf8', at, nameEnd);
          // Then: table OID (4), column number (2), type OID (4), size (2), modifier (4), format (2).
          const dataTypeID = bytes.readUInt32BE(nameEnd + 7);
          fields.push({ name, dataTypeID });
          at = nameEnd + 19;
        }
        fieldParsers = fields.map((field) => parsers[field.dataTypeID]);
        break;
      }
      case DATA_ROW: {
        const count = bytes.readUInt16BE(at);
        at += 2;
        const row: unknown[] | Record<string, unknown> = asArrays ? new Array<unknown>(count) : {};
        for (let i = 0; i < count; i += 1) {
          const length = bytes.readInt32BE(at);
          at += 4;
          let value: unknown = null;
          if (length >= 0) {
            const text = bytes.toString('utf8', at, at + length);
            at += length;
            const parse = fieldParsers[i];
            value = parse ? parse(text, fields[i]!.dataTypeID) : text;
          }
          if (asArrays) (row as unknown[])[i] = value;
          else (row as Record<string, unknown>)[fields[i]!.name] = value;
        }
        rows.push(row as Results['rows'][number]);
        break;
      }
      case COMMAND_COMPLETE: {
        // "SELECT 2", "UPDATE 3", "INSERT 0 5"; other tags end in a word ("CREATE TABLE").
        const parts = bytes.toString('utf8', at, end - 1).split(' ');
        const command = parts[0]!;
        const rowCount = Number.parseInt(parts.at(-1)!, 10);
        if (CHANGING_COMMANDS.has(command)) affectedRows += rowCount;
        // Like PGlite's parseResults, the first result is the statement's.
        result ??= { rows, fields, command, affectedRows, ...(Number.isNaN(rowCount) ? {} : { rowCount }) };
        rows = [];
        fields = [];
        fieldParsers = [];
        break;
      }
      case ERROR_RESPONSE:
        throw databaseError(reply);
    }
    offset = end;
  }
  return result ?? { rows: [], fields: [], affectedRows: 0 };
}

/** The reply's first error, as PGlite's own parser makes it. */
function databaseError(reply: Uint8Array): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(reply, (message) => {
    if (!error && message instanceof Error) error = message;
  });
  return error ?? new Error('The database replied with an error it could not read');
}

export interface DatabaseNotification {
  channel: string;
  payload: string;
}

/**
 * The NOTIFY messages in a reply: a statement that commits (outside a transaction) carries those of
 * its transaction, which this session hears because it LISTENs. readReply skips them.
 */
export function readNotifications(reply: Uint8Array): DatabaseNotification[] {
  const bytes = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  const found: DatabaseNotification[] = [];
  let offset = 0;
  while (offset + 5 <= bytes.length) {
    const end = offset + 1 + bytes.readUInt32BE(offset + 1);
    if (bytes[offset] === NOTIFICATION_RESPONSE) {
      // Int32 process id, then two NUL-terminated strings: the channel and the payload.
      const channelStart = offset + 9;
      const channelEnd = bytes.indexOf(0, channelStart);
      const payloadEnd = bytes.indexOf(0, channelEnd + 1);
      found.push({
        channel: bytes.toString('utf8', channelStart, channelEnd),
        payload: bytes.toString('utf8', channelEnd + 1, payloadEnd),
      });
    }
    offset = end;
  }
  return found;
}
