import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** One file a form sent: its bytes, cut at the scope's limit (and then marked truncated). */
export type UploadedFile = { bytes: Buffer; truncated: boolean };

/** The files each upload request carried, by field name, set aside while its text fields become req.body. */
const uploaded = new WeakMap<FastifyRequest, Map<string, UploadedFile>>();

/**
 * The dashboard's few upload forms register the multipart parser for their own routes only, in
 * a scope of their own, with their own limits (the size of one file, how many files and text
 * fields, the size of a text field). A form posted url-encoded still reaches its route as usual.
 */
export function acceptUploads(limits: {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
}): (scope: FastifyInstance) => Promise<void> {
  return async (scope) => {
    await scope.register(multipart, {
      // Over the limit a file is cut short and marked truncated (not thrown), so the rest of the
      // request is still read and the form can say what went wrong.
      throwFileSizeLimit: false,
      limits: { ...limits, parts: limits.files + limits.fields, fieldNameSize: 64, headerPairs: 50 },
    });
    scope.addHook('preHandler', readUploadForm);
  };
}

/**
 * Reads the whole form (bounded by the limits above) before the router's checks of origin, CSRF
 * token, session and role: the token is one of the form's fields, and the checks read it from
 * req.body, so the text fields are put there. The first file of each field is kept.
 */
async function readUploadForm(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart()) {
    return;
  }
  const fields: Record<string, string> = {};
  const files = new Map<string, UploadedFile>();
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (!files.has(part.fieldname)) {
        files.set(part.fieldname, { bytes, truncated: part.file.truncated });
      }
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  uploaded.set(req, files);
  req.body = fields;
}

/** The file the form sent in `field`; null when it sent none, or an empty one (a file input left empty). */
export function uploadedFile(req: FastifyRequest, field: string): UploadedFile | null {
  const file = uploaded.get(req)?.get(field);
  return file && file.bytes.length > 0 ? file : null;
}
