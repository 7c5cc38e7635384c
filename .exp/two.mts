import sharp from 'sharp';
const f = '/work/shared/data/real/mrz/lines/images/tmrz_0_original_jpg_babd11/0_original.jpg-1.tif';
const { data, info } = await sharp(f).grayscale().raw().toBuffer({ resolveWithObject: true });
console.log(info, data.length);
const px = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).resize(807, 48, { fit: 'fill', kernel: 'linear' }).raw().toBuffer({resolveWithObject:true});
console.log(px.info);
