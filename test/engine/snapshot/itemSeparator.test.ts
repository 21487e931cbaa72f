/** The one guess of where a List's items end, used by the whole-text parse and the streamed reader. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { itemSeparator, stringEnd } from '../../../src/engine/snapshot/itemSeparator';

describe('the item separator', () => {
  const cases: [name: string, text: string, close: number, open: number, want: ReturnType<typeof itemSeparator>][] = [
    ['compact', '{"a":1},{"apiVersion":"v1"}', 6, 8, { text: '},{"apiVersion":', step: 2 }],
    ['as kubectl indents', '{\n    "a": 1\n},\n{\n    "kind" : "Pod"}', 13, 16, { text: '},\n{\n    "kind" :', step: 3 }],
    ['a key with an escaped quote', '{},{"a\\"b":1}', 1, 3, { text: '},{"a\\"b":', step: 2 }],
    ['the next item is not an object', '{},[1]', 1, 3, undefined],
    ['the first item is not an object', '[1],{"a":1}', 2, 4, undefined],
    ['an empty object next', '{},{}', 1, 3, undefined],
    ['the text ends before the next item', '{},', 1, 3, 'more'],
    ['the text ends inside the key', '{},{"apiVers', 1, 3, 'more'],
    ['the text ends before the colon', '{},{"apiVersion"  ', 1, 3, 'more'],
  ];
  for (const [name, text, close, open, want] of cases) it(name, () => assert.deepEqual(itemSeparator(text, close, open), want));

  const strings: [string, number, number][] = [
    ['"abc"', 0, 4],
    ['"a\\"c"', 0, 5],
    ['"a\\\\"c"', 0, 4],
    ['"abc', 0, -1],
  ];
  for (const [text, open, want] of strings) it(`the string ${text} ends at ${want}`, () => assert.equal(stringEnd(text, open), want));
});
