/** Reading a benchmark data file, with errors that name the file and what is wrong. */
import { readFile } from 'node:fs/promises';

import { InvalidInputError } from 'engram';

/** The parsed JSON of `file`; `format` names the expected format in the error messages. */
export async function readJsonFile(file: string, format: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (cause as Error).message;
    throw new InvalidInputError(`cannot read ${format} file ${file}: ${reason}`, { cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InvalidInputError(`${file} is not JSON: ${(cause as Error).message}`, { cause });
  }
}
