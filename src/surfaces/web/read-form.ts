/**
 * Reading an inspector form: URL-encoded only (the forms send nothing else), within a small
 * size limit, into plain fields.
 */
import { ApiError } from '../http/api-error.js';
import { readBodyText } from '../http/read-body.js';

/** The largest form accepted: tags and a token, never a memory's text. @default 64 KiB */
export const MAX_FORM_BYTES = 64 * 1024;

/** A submitted form: the first value of each field, and every value by name. */
export interface FormFields {
  get(name: string): string | undefined;
  getAll(name: string): string[];
}

/** The request's URL-encoded form; an ApiError 415 for any other body. */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormFields> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ApiError(415, 'invalid_input', 'the inspector takes forms only (application/x-www-form-urlencoded)');
  }
  const params = new URLSearchParams(await readBodyText(request, maxBytes));
  return { get: (name) => params.get(name) ?? undefined, getAll: (name) => params.getAll(name) };
}
