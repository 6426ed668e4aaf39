import { chmodSync, existsSync } from 'node:fs';

/** Files 0600 and directories 0700: what this process creates is readable by its own user only. */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Called first thing by every entry point that writes into DATA_DIR (the server's bootstrap, the backup
 * and admin command lines). DATA_DIR holds the embedded database (password hashes, exact places, who is
 * a moderator), the secrets, the outbox's mails and the media; under a permissive umask PGlite made its
 * files 0666, so any local user could read them or make themselves admin (issue 46). The umask covers
 * every writer at once (PGlite's worker thread included, the umask being the process's); the writers
 * we own also pass their mode. DATA_DIR and a local MEDIA_DIR made by an older version with looser modes
 * are closed here: 0700 on the directory keeps everyone else out of all that is under it.
 */
export function keepDataPrivate(dirs: readonly (string | undefined)[]): void {
  process.umask(PRIVATE_UMASK);
  for (const dir of dirs) {
    if (!dir || !existsSync(dir)) continue;
    try {
      chmodSync(dir, PRIVATE_DIR_MODE);
    } catch (err) {
      // Another user's directory (a volume mounted as root, say): what we write in it is still 0600/0700.
      console.warn(`Could not make ${dir} private (chmod 700): ${(err as Error).message}`);
    }
  }
}
