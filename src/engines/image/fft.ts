// Radix-2 FFT for the spectral measures (face texture, document moiré). Pure, no I/O.

/** In-place radix-2 FFT over rows then columns; size must be a power of two. */
export function fft2d(re: Float64Array, im: Float64Array, size: number): void {
  const rowRe = new Float64Array(size);
  const rowIm = new Float64Array(size);
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < size; k++) {
      for (let j = 0; j < size; j++) {
        const idx = pass === 0 ? k * size + j : j * size + k;
        rowRe[j] = re[idx]!;
        rowIm[j] = im[idx]!;
      }
      fft1d(rowRe, rowIm);
      for (let j = 0; j < size; j++) {
        const idx = pass === 0 ? k * size + j : j * size + k;
        re[idx] = rowRe[j]!;
        im[idx] = rowIm[j]!;
      }
    }
  }
}

export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if ((n & (n - 1)) !== 0) throw new RangeError('fft length must be a power of two');
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wRe = Math.cos(angle);
    const wIm = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cRe = 1;
      let cIm = 0;
      for (let j = 0; j < len / 2; j++) {
        const aRe = re[i + j]!;
        const aIm = im[i + j]!;
        const bRe = re[i + j + len / 2]! * cRe - im[i + j + len / 2]! * cIm;
        const bIm = re[i + j + len / 2]! * cIm + im[i + j + len / 2]! * cRe;
        re[i + j] = aRe + bRe;
        im[i + j] = aIm + bIm;
        re[i + j + len / 2] = aRe - bRe;
        im[i + j + len / 2] = aIm - bIm;
        const nRe = cRe * wRe - cIm * wIm;
        cIm = cRe * wIm + cIm * wRe;
        cRe = nRe;
      }
    }
  }
}
