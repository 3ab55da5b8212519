/** Token estimates for budgets: characters ÷ 4, the usual rule of thumb for English text. */

const CHARS_PER_TOKEN = 4;

/** About how many tokens `text` costs a model. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
