import { describe, expect, it } from 'vitest';

import { itemText, parseFieldPaths, WHOLE_VALUE } from './item-text.js';

const value = {
  title: 'Q4 Report',
  year: 2025,
  final: true,
  metadata: { author: 'Dana', pages: 12, reviewers: ['Eli', 'Fay'] },
  chapters: [{ content: 'Revenue grew' }, { content: 'Costs fell' }, { summary: 'Outlook' }],
  empty: '   ',
};

describe('the text an item is indexed by', () => {
  it.each([
    ['a field', ['title'], 'Q4 Report'],
    ['a nested field', ['metadata.author'], 'Dana'],
    ['a number or boolean chosen by its path', ['year', 'final'], '2025\ntrue'],
    ['every member of a list', ['chapters[*].content'], 'Revenue grew\nCosts fell'],
    ['one member, counted from the end too', ['chapters[0].content', 'metadata.reviewers[-1]'], 'Revenue grew\nFay'],
    ['every field of an object', ['metadata.*'], 'Dana\n12\nEli\nFay'],
    ['the strings inside a chosen object, not its numbers', ['metadata'], 'Dana\nEli\nFay'],
    ['several paths, in their order', ['metadata.author', 'title'], 'Dana\nQ4 Report'],
    ['missing fields and indexes, which give nothing', ['nope', 'chapters[9].content', 'title.deeper', 'title'], 'Q4 Report'],
  ])('reads %s', (_case, paths, text) => {
    expect(itemText(value, parseFieldPaths(paths, 'index'), 'the-key')).toBe(text);
  });

  it('reads every string of the value by default ("$"), field names and numbers left out', () => {
    expect(itemText(value, WHOLE_VALUE, 'k')).toBe('Q4 Report\nDana\nEli\nFay\nRevenue grew\nCosts fell\nOutlook');
    expect(itemText(value, parseFieldPaths(['$'], 'index'), 'k')).toBe(itemText(value, WHOLE_VALUE, 'k'));
  });

  it('falls back to the key when the value has no text to index', () => {
    expect(itemText({ count: 3, on: false }, WHOLE_VALUE, 'counter')).toBe('counter');
    expect(itemText(value, [], 'not-indexed')).toBe('not-indexed');
    expect(itemText(value, parseFieldPaths(['empty'], 'index'), 'blank')).toBe('blank');
  });

  it.each([
    ['an empty path', [''], 'it is empty'],
    ['a group of fields', ['{title,year}'], 'a {a,b} group is not supported'],
    ['a named index', ['chapters[first]'], '[first] is not a list index'],
    ['an empty step', ['metadata..author'], 'a field name is empty'],
    ['something not a list of paths', 'title', 'must be a list of field paths'],
  ])('refuses %s, saying why', (_case, paths, message) => {
    expect(() => parseFieldPaths(paths, 'index')).toThrow(message);
  });
});
