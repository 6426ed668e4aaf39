import unhomoglyph from 'unhomoglyph';

/**
 * The key under which two usernames count as the same name to a reader (issue 23): Unicode's
 * confusables skeleton (UTS #39: NFD, each character replaced by its prototype from confusables.txt,
 * NFD again; the mapping comes from the `unhomoglyph` package), compared without case. Case is folded
 * after the mapping and the mapping applied again until nothing changes, because each can expose
 * work for the other: 'DEM0' -> 'DEMO' -> 'demo' -> 'derno' ('m' looks like 'rn'), like 'demo' itself.
 * Not for display: the key of 'luna_lover' is what 'Iuna_1over' maps to, and it is not meant to be read.
 */
export function usernameSkeleton(username: string): string {
  let key = username;
  // The skeleton is idempotent and lower-casing shrinks the alphabet, so this settles in two rounds or three.
  for (let round = 0; round < 5; round += 1) {
    const next = unhomoglyph(key.normalize('NFD')).normalize('NFD').toLowerCase();
    if (next === key) break;
    key = next;
  }
  return key;
}
