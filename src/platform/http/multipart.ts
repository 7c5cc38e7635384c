import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { MULTIPART_BODY } from './validation.js';

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
    if (request.isMultipart() && request.body && typeof request.body === 'object') {
      Object.defineProperty(request.body, MULTIPART_BODY, { value: true, enumerable: false });
    }
  });
}
