/**
 * The hostile inputs the fuzzer draws from, all from one seeded generator: strings with NUL
 * bytes, lone surrogates, control and bidi characters, FTS5 syntax, path-like ids and SQL; values
 * of the wrong type; deeply nested and very large JSON; and raw bodies that are not JSON at all.
 */
import { between, pickOne, type Random } from './seeded.js';

/** Strings that have broken parsers, query languages and file paths elsewhere. */
const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'lone \udfff surrogate',
  '\ud83d\ude00\u200d\u2764\ufe0f',
  '\u202eevil\u202c',
  '\u0085\u2028\u2029',
  '\r\n\r\n',
  '\t\u000b\u000c',
  '\u001b[31mred\u001b[0m',
  '"',
  "'",
  '\\',
  '\\u0000',
  '{',
  '}',
  '[]',
  'null',
  'NaN',
  '-0',
  '1e999',
  'true',
  '../../../../etc/passwd',
  '..\\..\\windows\\system32',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'C:\\Windows\\win.ini',
  'file:///etc/passwd',
  '*',
  'NEAR(a b, 2)',
  'a AND OR NOT b',
  '"unterminated',
  'col:value',
  '^start',
  'a*b*c*',
  '(((',
  ')',
  '-',
  '+',
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '${process.env}',
  '{{constructor.constructor("return process")()}}',
  '__proto__',
  'constructor',
  'prototype',
  'default',
  'global',
  'user:',
  ':',
  '::',
  'x'.repeat(300),
  'ｅｎｇｒａｍ',
  '\ufeffbom',
  '\uffff\ufffe',
  '\u{10ffff}',
  'Ω≈ç√∫˜µ≤≥÷',
  '田中さんにあげて下さい',
  'ثم نفس سقطت وبالتحديد',
];

/** A hostile string: a known nasty one, a random mix of code points, or a long run. */
export function hostileString(random: Random): string {
  const roll = random();
  if (roll < 0.55) return pickOne(random, NASTY_STRINGS);
  if (roll < 0.85) return randomCodePoints(random, between(random, 1, 40));
  if (roll < 0.95) return `${pickOne(random, NASTY_STRINGS)} ${pickOne(random, NASTY_STRINGS)} ${randomCodePoints(random, 5)}`;
  return pickOne(random, ['a', '\u0000', 'é', '\ud800', ' ']).repeat(between(random, 1_000, 120_000));
}

/** Code points from the awkward corners: controls, surrogates, private use, the last planes. */
function randomCodePoints(random: Random, count: number): string {
  const ranges: readonly [number, number][] = [
    [0x00, 0x1f],
    [0x20, 0x7e],
    [0x7f, 0x9f],
    [0xd800, 0xdfff],
    [0x200b, 0x206f],
    [0xe000, 0xf8ff],
    [0xfff0, 0xffff],
    [0x1f300, 0x1f6ff],
    [0xe0000, 0xe007f],
    [0x10fff0, 0x10ffff],
  ];
  let text = '';
  for (let i = 0; i < count; i++) {
    const [low, high] = pickOne(random, ranges);
    const code = between(random, low, high);
    text += code <= 0xffff ? String.fromCharCode(code) : String.fromCodePoint(code);
  }
  return text;
}

/** A path-like or otherwise strange id, for URL segments and id arguments. */
export function hostileId(random: Random): string {
  return pickOne(random, [
    '..',
    '.',
    '../../etc/passwd',
    '%2e%2e%2f',
    '%00',
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    'a%2Fb',
    '01JD0000000000000000000000',
    '0'.repeat(26),
    'Z'.repeat(2_000),
    'null',
    'undefined',
    '-1',
    '1e309',
    '*',
    '\u0000',
    ' ',
    encodeLoosely(hostileString(random).slice(0, 200)),
  ]);
}

/** A value of any JSON type, hostile where it is a string, nested up to `depth`. */
export function hostileValue(random: Random, depth = 2): unknown {
  const roll = random();
  if (roll < 0.4) return hostileString(random);
  if (roll < 0.55)
    return pickOne(random, [0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 51, 1_000_000, 0.0001]);
  if (roll < 0.62) return pickOne(random, [true, false]);
  if (roll < 0.7) return null;
  if (roll < 0.85 || depth <= 0) return Array.from({ length: between(random, 0, 4) }, () => hostileValue(random, depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = between(random, 0, 4); i > 0; i--) object[hostileString(random).slice(0, 40)] = hostileValue(random, depth - 1);
  return object;
}

/** JSON nested `levels` deep: an array or an object chain. */
export function deeplyNested(random: Random, levels: number): string {
  return random() < 0.5 ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** A request body that is not the JSON object a route wants: broken, truncated, huge or binary. */
export function brokenBody(random: Random): string | Uint8Array {
  const roll = random();
  if (roll < 0.2)
    return pickOne(random, ['{', '{"text":', '{"text": "a",}', "{'text': 'a'}", 'undefined', '\u0000', '{"a":1}{"b":2}']);
  if (roll < 0.35) return JSON.stringify(hostileValue(random, 3)).slice(0, between(random, 0, 60));
  if (roll < 0.5) return deeplyNested(random, pickOne(random, [100, 1_000, 10_000, 100_000]));
  if (roll < 0.6) return new Uint8Array(Array.from({ length: between(random, 1, 64) }, () => between(random, 0, 255)));
  if (roll < 0.7) return Buffer.from('{"text":"\xff\xfe invalid utf-8"}', 'latin1');
  if (roll < 0.8) return pickOne(random, ['[]', '[{"text":"a"}]', '"a string"', '42', 'null', 'true']);
  if (roll < 0.9) return JSON.stringify({ text: 'x'.repeat(between(random, 900_000, 1_200_000)) });
  return `{"__proto__":{"admin":true},"constructor":{"prototype":{"polluted":1}},"text":${JSON.stringify(hostileString(random))}}`;
}

/** `encodeURIComponent`, with lone surrogates (which it refuses) sent as the bytes they would be in CESU-8. */
export function encodeLoosely(text: string): string {
  return text
    .split(/([\ud800-\udfff])/)
    .map((part) =>
      /^[\ud800-\udfff]$/.test(part) && !/[\ud800-\udbff][\udc00-\udfff]/.test(part)
        ? [
            ...Buffer.from([
              0xe0 | (part.charCodeAt(0) >> 12),
              0x80 | ((part.charCodeAt(0) >> 6) & 0x3f),
              0x80 | (part.charCodeAt(0) & 0x3f),
            ]),
          ]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('');
}
