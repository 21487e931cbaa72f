/** Reading evidence line by line, and the paste noise skipped on the way. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isPasteNoise, linesOf } from '../../../src/engine/import/lines';

describe('lines of a stream', () => {
  it('lines are split across chunk boundaries, numbered from 1, CRLF or LF', () => {
    assert.deepEqual(
      [...linesOf(['a\r', '\nb', 'c\n', '', 'd'])],
      [
        { n: 1, text: 'a' },
        { n: 2, text: 'bc' },
        { n: 3, text: 'd' },
      ],
    );
  });
  it('a line longer than the limit is cut, its rest dropped up to its end, and the next line keeps its number', () => {
    assert.deepEqual(
      [...linesOf(['ab', 'cdef', 'gh\nij\n', 'klmnopq'], 4)],
      [
        { n: 1, text: 'abcd', cut: true },
        { n: 2, text: 'ij' },
        { n: 3, text: 'klmn', cut: true },
      ],
    );
    assert.deepEqual(
      [...linesOf(['abcdef', '\nxy'], 4)],
      [
        { n: 1, text: 'abcd', cut: true },
        { n: 2, text: 'xy' },
      ],
    );
  });
  it('any cutting of a text into chunks gives the lines of the whole text (2,000 seeded texts and cuttings)', () => {
    let seed = 16;
    const rand = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % k;
    };
    const alphabet = ['a', 'b', '\n', '\r', '\r\n', 'é', '{"k":1}'];
    for (let t = 0; t < 2000; t++) {
      let text = '';
      for (let i = rand(40); i > 0; i--) text += alphabet[rand(alphabet.length)];
      const chunks: string[] = [];
      for (let at = 0; at < text.length;) {
        const len = rand(6);
        chunks.push(text.slice(at, at + len));
        at += len;
      }
      const whole = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
      if (text.endsWith('\n') || !text) whole.pop();
      assert.deepEqual(
        [...linesOf(chunks)].map((l) => l.text),
        whole,
        JSON.stringify(chunks),
      );
    }
  });
  it('a line cut in one chunk and ended by a CR LF split across the next two loses its CR', () => {
    assert.deepEqual(
      [...linesOf(['ab', 'c\r', '\nd\r', '\n'])],
      [
        { n: 1, text: 'abc' },
        { n: 2, text: 'd' },
      ],
    );
  });
  it('a stream without a final newline keeps its last line, and an empty one has none', () => {
    assert.deepEqual([...linesOf(['x'])], [{ n: 1, text: 'x' }]);
    assert.deepEqual([...linesOf([])], []);
  });
});

describe('paste noise', () => {
  const cases: [string, boolean][] = [
    ['$ kubectl logs -n kube-system kube-controller-manager-x', true],
    ['root@black-cluster-controller:~# k logs -f kube-controller-manager-black-master-2  --tail=20', true],
    ['bash-5.0# tail kube-controller-manager.log', true],
    ['$ journalctl -u kube-controller-manager', true],
    ['lines 312-395/395 (END)', true],
    ['...', true],
    ['', true],
    ['I0101 00:00:00.000000       1 x.go:1] "hello"', false],
    ['$ echo hello', false],
    ['# a comment someone wrote', false],
  ];
  for (const [line, noise] of cases) it(`${JSON.stringify(line)} is ${noise ? '' : 'not '}noise`, () => assert.equal(isPasteNoise(line), noise));
});
