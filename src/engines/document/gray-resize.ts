import sharp from 'sharp';
import type { GrayImage } from './image-ops.js';

/** A grey image resized to exactly width × height (bilinear, aspect not kept), by sharp off the event loop. */
export async function resizeGray(g: GrayImage, width: number, height: number): Promise<GrayImage> {
  const data = await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), {
    raw: { width: g.width, height: g.height, channels: 1 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}
