import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_WIDTHS } from '@cats/contracts';
import type * as Contracts from '@cats/contracts';
import { greyPng } from '../../test/hostile/support/images.ts';
import { HttpError } from '../lib/http-errors.ts';
import {
  imagePipelineLoad,
  setImageTimeout,
  storeImageVariants,
  TOO_SLOW_MESSAGE,
} from './image-pipeline.ts';
import { LocalStorage } from './local-storage.ts';

// The header checks would refuse the sliver before decoding; lifted here so that the time limit alone
// is what stops it (a crafted image within the limits that is slow to decode takes the same path).
vi.mock('@cats/contracts', async (original) => ({
  ...(await original<typeof Contracts>()),
  MAX_UPLOAD_SIDE: Number.MAX_SAFE_INTEGER,
  MAX_UPLOAD_ASPECT_RATIO: Number.MAX_SAFE_INTEGER,
}));

const dir = mkdtempSync(join(tmpdir(), 'cats-timeout-'));
const storage = new LocalStorage(dir);
afterAll(() => {
  setImageTimeout(5);
  rmSync(dir, { recursive: true, force: true });
});

describe('the image time limit', () => {
  it('stops an image past its time with 422 and a clear message, storing nothing and freeing the slot', async () => {
    // A valid 76 KB PNG of 1 x 39,000,000: ~30 s of decoding without a limit (issue 46).
    const sliver = greyPng(1, 39_000_000);
    setImageTimeout(1);
    const started = Date.now();
    const error = await storeImageVariants(storage, sliver, { kind: 'posts', widths: IMAGE_WIDTHS }).catch(
      (err: unknown) => err,
    );
    // One second of budget; libvips notices the kill at its next progress report, a second or two on.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(HttpError);
    expect([(error as HttpError).statusCode, (error as HttpError).message]).toEqual([422, TOO_SLOW_MESSAGE]);
    expect(readdirSync(dir)).toEqual([]);
    expect(imagePipelineLoad().active).toBe(0);
  }, 60_000);
});
