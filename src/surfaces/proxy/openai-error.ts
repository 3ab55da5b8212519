/** Errors in the OpenAI API's shape, so any OpenAI client shows the message as it shows its own. */

/** `{ error: { message, type, param, code } }`, as OpenAI answers. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function openAiError(message: string, type = 'invalid_request_error', code: string | null = null): OpenAiErrorBody {
  return { error: { message, type, param: null, code } };
}
