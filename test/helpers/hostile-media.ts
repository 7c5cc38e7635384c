import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';

/** Media of every kind the capture API may meet: real images at odd sizes, mislabelled, cut short, empty, PDFs, noise. */
export async function hostileMedia(rnd: () => number): Promise<{ name: string; type: string; data: Buffer }[]> {
  const noise = (w: number, h: number) => {
    const px = Buffer.alloc(w * h * 3);
    for (let i = 0; i < px.length; i++) px[i] = Math.floor(rnd() * 256);
    return sharp(px, { raw: { width: w, height: h, channels: 3 } });
  };
  const jpeg = await noise(320, 240).jpeg().toBuffer();
  const png = await noise(32, 32).png().toBuffer();
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 100]).drawText('Proof of address', { x: 10, y: 50, size: 12 });
  const pdfBytes = Buffer.from(await pdf.save());
  return [
    { name: 'jpeg 320×240 noise', type: 'image/jpeg', data: jpeg },
    { name: 'jpeg 1×1', type: 'image/jpeg', data: await noise(1, 1).jpeg().toBuffer() },
    { name: 'png 4000×3 strip', type: 'image/png', data: await noise(4000, 3).png().toBuffer() },
    { name: 'webp 48×64', type: 'image/webp', data: await noise(48, 64).webp().toBuffer() },
    { name: 'png sent as jpeg', type: 'image/jpeg', data: png },
    { name: 'jpeg cut in half', type: 'image/jpeg', data: jpeg.subarray(0, jpeg.length >> 1) },
    { name: 'empty', type: 'image/png', data: Buffer.alloc(0) },
    { name: 'pdf', type: 'application/pdf', data: pdfBytes },
    { name: 'pdf sent as octet-stream', type: 'application/octet-stream', data: pdfBytes },
    { name: 'pdf header, no body', type: 'application/pdf', data: Buffer.from('%PDF-1.7\n%%EOF') },
    {
      name: 'heic brand, no image',
      type: 'image/heic',
      data: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(12)]),
    },
    { name: 'text as jpeg', type: 'image/jpeg', data: Buffer.from('not an image at all') },
  ];
}
