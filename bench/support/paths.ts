import { resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Scratch space for generated media, data directories and logs (git-ignored). */
export const WORK_DIR = resolve(ROOT, 'bench', '.work');
