import { ACCEPTED_IMAGE_TYPES } from '@cats/contracts';

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Spec section 5: the photo must be image/jpg, image/jpeg or image/png. */
export const isAcceptedImage = (file: File): boolean =>
  (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type.toLowerCase());

/** The file input's accept list: both MIME types and extensions, which phones' pickers understand. */
export const ACCEPT_ATTRIBUTE = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** Phone photos are downscaled before upload: 2048 px is more than the largest served variant (1600). */
export const MAX_OUTPUT_SIZE = 2048;

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('The picture could not be read'));
    img.src = src;
  });
}

/**
 * Draws the chosen square of the picture on a canvas no larger than `maxSize` and exports it as JPEG
 * (spec section 5). Only the cropped region is drawn, so even a 50 MP photo needs a small canvas.
 * Browsers apply EXIF orientation when drawing, matching what the cropper showed.
 */
export async function cropToJpeg(src: string, area: PixelArea, maxSize = MAX_OUTPUT_SIZE): Promise<Blob> {
  const img = await loadImage(src);
  const scale = Math.min(1, maxSize / Math.max(area.width, area.height));
  const width = Math.max(1, Math.round(area.width * scale));
  const height = Math.max(1, Math.round(area.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot crop pictures');
  ctx.imageSmoothingQuality = 'high';
  // A PNG with transparency gets a white background rather than JPEG's black.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be cropped'))),
      'image/jpeg',
      0.9,
    ),
  );
}
