import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MULTIPART_BODY } from './validation.js';

/** Multipart requests whose body was read (this plugin's parsing hook ran before ours and did not throw). */
const multipartRead = new WeakSet<FastifyRequest>();

/** A failure of a multipart request before its body was read is the body's fault (no boundary, truncated parts). */
export function failedReadingMultipart(request: FastifyRequest): boolean {
  return typeof request.isMultipart === 'function' && request.isMultipart() && !multipartRead.has(request);
}

/**
 * Endpoints that take images accept them as base64 strings in JSON or as files in
 * multipart/form-data. Files are turned into base64 strings of the same field name, so one schema
 * validates both forms and verbs see one shape.
 */
export async function registerMultipart(app: FastifyInstance, bodyLimitBytes: number): Promise<void> {
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: bodyLimitBytes, files: 10, fields: 50, fieldSize: 1024 * 1024, parts: 60 },
    async onFile(part) {
      const buf = await part.toBuffer();
      (part as unknown as { value: string }).value = buf.toString('base64');
    },
  });
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart()) multipartRead.add(request);
    if (request.isMultipart() && request.body && typeof request.body === 'object') {
      Object.defineProperty(request.body, MULTIPART_BODY, { value: true, enumerable: false });
    }
  });
}
