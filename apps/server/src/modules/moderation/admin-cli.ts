import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../../db/client.ts';
import { keepDataPrivate } from '../../lib/private-files.ts';
import * as repo from './staff.repository.ts';

/**
 * `npm run admin -- grant admin someone@example.com` (issue 27): names the first admin, and any later
 * role change the web does not offer (an admin's own, another admin's). Also `grant moderator` and
 * `revoke` (back to member). Runs against the configured database (DATA_DIR or DATABASE_URL, as
 * `npm start` and `npm run db:migrate`). With the embedded database, stop the server first: PGlite
 * opens its data directory in one process at a time.
 */
export const ADMIN_CLI_USAGE = [
  'Usage:',
  '  npm run admin -- grant admin <email>       make the account an admin',
  '  npm run admin -- grant moderator <email>   make the account a moderator',
  '  npm run admin -- revoke <email>            make the account a member again',
  '  npm run admin -- list                      list the admins and moderators',
].join('\n');

export interface CliResult {
  /** The process's exit code: 0 done (or nothing to do), 1 refused, 2 wrong usage. */
  code: number;
  /** What it did, or why not: whole sentences, printed as they are. */
  output: string;
}

/** Runs one command against an open database. */
export async function runAdminCommand(db: Database, args: readonly string[]): Promise<CliResult> {
  const [command, ...rest] = args;
  if (command === 'list' && rest.length === 0) {
    const staff = await repo.listStaff(db);
    if (staff.length === 0) return { code: 0, output: 'There are no admins or moderators yet.' };
    return { code: 0, output: staff.map((s) => `${s.role}\t${s.username}\t${s.email}`).join('\n') };
  }
  let role: 'admin' | 'moderator' | 'member';
  let email: string | undefined;
  if (command === 'grant' && rest.length === 2 && (rest[0] === 'admin' || rest[0] === 'moderator')) {
    role = rest[0];
    email = rest[1];
  } else if (command === 'revoke' && rest.length === 1) {
    role = 'member';
    email = rest[0];
  } else if (command === 'grant') {
    return {
      code: 2,
      output: `Grant which role to whom? Give a role (admin or moderator) and an email.\n${ADMIN_CLI_USAGE}`,
    };
  } else if (command === 'revoke') {
    return { code: 2, output: `Revoke whose role? Give one email.\n${ADMIN_CLI_USAGE}` };
  } else {
    const what = command === undefined ? 'No command given.' : `Unknown command: ${command}.`;
    return { code: 2, output: `${what}\n${ADMIN_CLI_USAGE}` };
  }
  const user = await repo.findByEmail(db, email!);
  if (!user) return { code: 1, output: `There is no account with the email ${email}.` };
  if (user.role === role) {
    return {
      code: 0,
      output: `${user.username} (${user.email}) is already ${article(role)}; nothing changed.`,
    };
  }
  await repo.setRole(db, user.id, role);
  return {
    code: 0,
    output: `${user.username} (${user.email}) is now ${article(role)} (was ${article(user.role)}).`,
  };
}

const article = (role: string) => (role === 'admin' ? 'an admin' : `a ${role}`);

export interface CliOptions {
  /** An open database to use (tests); otherwise the configured one is opened, migrated and closed. */
  database?: DatabaseHandle;
  env?: NodeJS.ProcessEnv;
  print?: (text: string) => void;
}

/** The command line: runs the command on the database, prints what it did, answers the exit code. */
export async function main(args: readonly string[], opts: CliOptions = {}): Promise<number> {
  const print = opts.print ?? ((text: string) => console.log(text));
  if (opts.database) {
    const result = await runAdminCommand(opts.database.db, args);
    print(result.output);
    return result.code;
  }
  const config = loadConfig(opts.env ?? process.env);
  // On a fresh DATA_DIR this creates the embedded database: this user's alone (issue 46).
  keepDataPrivate([resolve(config.DATA_DIR)]);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: resolve(config.DATA_DIR),
  });
  try {
    // A fresh data directory: the tables first, as the server would make them on start.
    await database.migrate();
    return await main(args, { database, print });
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
