import { randomInt } from 'node:crypto';

/**
 * Join codes (issue 23): `<name without spaces>-XXXX-XXXX`, e.g. `CalleLunaCats-7KQ4-M2XD`. The name
 * makes the code recognisable; the secret is the 8 characters from Crockford's base32 (digits and
 * capitals without I, L, O, U): 8 x 5 = 40 bits from the operating system's CSPRNG, so with the
 * join throttle (join-throttle.ts) guessing a code takes longer than any group lives. The name part
 * adds nothing to the secret: knowing a group's name must not help.
 */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SECRET_LENGTH = 8;
const SECRET_GROUP = 4;

/** The name without whitespace, dashes, '#' or invisible characters; 'Group' when nothing is left. */
export function codeBase(name: string): string {
  return name.normalize('NFC').replace(/[\s#\-\p{Default_Ignorable_Code_Point}]+/gu, '') || 'Group';
}

export function generateCode(name: string): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i += 1) secret += CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)];
  return `${codeBase(name)}-${secret.slice(0, SECRET_GROUP)}-${secret.slice(SECRET_GROUP)}`;
}

/** Crockford's reading of the letters people type for a digit they saw. */
const LOOK_ALIKES: Record<string, string> = { O: '0', I: '1', L: '1' };
/** Spaces and every dash a phone keyboard may substitute for '-' (en dash, em dash, minus...). */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D#]+/gu;

/**
 * The stored codes a typed code may mean, to be compared case-insensitively: the text as typed
 * (old-format codes such as `London#1234`, and any code typed exactly), and the current format
 * rebuilt from it. The rebuilt form accepts any case, spaces or dashes anywhere (or none), and O for
 * 0, I or L for 1 in the secret part: `callelunacats 7kq4 m2xd`, `CalleLunaCats7KQ4M2XD`. The name
 * part must still be spelled right (only case, spaces and dashes are forgiven there).
 */
export function codeCandidates(typed: string): string[] {
  const trimmed = typed.trim();
  const candidates = [trimmed];
  const compact = trimmed.normalize('NFC').replace(SEPARATORS, '');
  if (compact.length > SECRET_LENGTH) {
    const secret = [...compact.slice(-SECRET_LENGTH).toUpperCase()].map((c) => LOOK_ALIKES[c] ?? c).join('');
    if ([...secret].every((c) => CODE_ALPHABET.includes(c))) {
      const base = compact.slice(0, -SECRET_LENGTH);
      candidates.push(`${base}-${secret.slice(0, SECRET_GROUP)}-${secret.slice(SECRET_GROUP)}`);
    }
  }
  return [...new Set(candidates)];
}
