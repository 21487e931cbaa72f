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
