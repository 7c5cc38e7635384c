import { randomBytes } from 'node:crypto';

export interface FilePart {
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body as curl -F sends it, for app.inject: text fields, then files (an array repeats the field). */
export function multipartBody(
  fields: Record<string, string>,
  files: Record<string, FilePart | FilePart[]>,
): { body: Buffer; contentType: string } {
  const boundary = `----verity${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files))
    for (const f of Array.isArray(file) ? file : [file])
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.data,
        Buffer.from('\r\n'),
      );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
