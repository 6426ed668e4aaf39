/** The error type of backups and restores: what the operator is told when one is refused or fails. */

/** A refusal or failure with a message for the operator (printed as it is by the command line). */
export class BackupError extends Error {
  override name = 'BackupError';
}
