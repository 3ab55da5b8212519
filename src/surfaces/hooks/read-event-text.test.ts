import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { readEventText } from './read-event-text.js';

describe('reading a hook event from stdin', () => {
  it('answers as soon as one whole JSON object has arrived, even if the writer keeps stdin open', async () => {
    const input = new PassThrough();
    const text = readEventText(input);
    input.write('{"session_id":"s1",');
    input.write('"hook_event_name":"SessionEnd"}\n');
    expect(await text).toBe('{"session_id":"s1","hook_event_name":"SessionEnd"}\n');
  });

  it('reads to the end when the input never parses, for the parser to explain', async () => {
    const input = new PassThrough();
    const text = readEventText(input);
    input.write('not json}');
    input.end(' still not');
    expect(await text).toBe('not json} still not');
  });

  it('returns the empty text when stdin closes at once', async () => {
    const input = new PassThrough();
    const text = readEventText(input);
    input.end();
    expect(await text).toBe('');
  });
});
