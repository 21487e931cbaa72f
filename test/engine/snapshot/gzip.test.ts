/** Gzipped input: recognised by its magic bytes, inflated as a stream, refused past its limits with a reason. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import {
  GZIP_RATIO_FREE,
  GzipLimitError,
  gunzipBytes as gunzipWith,
  gzipSizeHint,
  isGzip,
  textDecoderUtf8,
  textOfBytes as textWith,
  type GunzipLimits,
  type MakeUtf8Decoder,
} from '../../../src/engine/snapshot/gzip';
import { gunzipText, inflater, stringDecoderUtf8, zlibInflater } from '../../../src/platform/gunzip';
import { readChunks } from '../../../src/platform/nodeFs';
import { fflateInflater } from '../../../src/platform/fflateInflater';
import type { MakeInflater } from '../../../src/engine/snapshot/gzip';

const enc = new TextEncoder();
const dec = new TextDecoder();
/** `bytes` cut into pieces of `size` */
const pieces = (bytes: Uint8Array, size: number): Uint8Array[] => {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};
const join = (chunks: Iterable<Uint8Array>): string => [...chunks].map((c) => dec.decode(c, { stream: true })).join('') + dec.decode();
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

it('the Node shells inflate with node:zlib', () => {
  assert.ok(zlibInflater);
  assert.equal(inflater, zlibInflater);
});

// the same table for both inflaters: node's zlib (command line, language server, extension host) and fflate (where there is no zlib)
for (const [path, inflate] of [
  ['node:zlib', zlibInflater!],
  ['fflate', fflateInflater],
] as [string, MakeInflater][]) {
  describe(`gunzip (${path})`, () => {
    const gunzipBytes = (chunks: Iterable<Uint8Array>, limits?: GunzipLimits) => gunzipWith(chunks, inflate, limits);
    const textOfBytes = (chunks: Iterable<Uint8Array>) => textWith(chunks, inflate);

    const text = 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n'.repeat(50);
    const one = new Uint8Array(gzipSync(text));
    const two = concat(new Uint8Array(gzipSync('first member\n')), new Uint8Array(gzipSync('second member\n')));
    const cases: [name: string, chunks: Uint8Array[], want: string][] = [
      ['plain text passes through unchanged', pieces(enc.encode(text), 7), text],
      ['one member, in one piece', [one], text],
      ['one member, a byte at a time (the magic split too)', pieces(one, 1), text],
      ['two members one after another (cat a.gz b.gz), in pieces of 5', pieces(two, 5), 'first member\nsecond member\n'],
      ['two members in one piece', [two], 'first member\nsecond member\n'],
      ['an empty file', [], ''],
      ['a file of one byte', [new Uint8Array([0x1f])], '\u001f'],
    ];
    for (const [name, chunks, want] of cases) it(name, () => assert.equal(join(gunzipBytes(chunks)), want));

    it('the magic bytes, not the name, say gzip', () => {
      assert.equal(isGzip(one), true);
      assert.equal(isGzip(enc.encode('{"kind":"List"}')), false);
      assert.equal(isGzip(new Uint8Array([0x1f])), false);
    });

    const broken: [name: string, chunks: Uint8Array[], says: RegExp][] = [
      ['a stream cut short', [one.subarray(0, one.length - 20)], /ends early/],
      ['a corrupt stream', [concat(one.subarray(0, 10), new Uint8Array(40).fill(0xff))], /corrupt after/],
    ];
    for (const [name, chunks, says] of broken) {
      it(`${name} throws with how far it got`, () => assert.throws(() => join(gunzipBytes(chunks)), says));
    }

    it('a whole read stops at its limit, on the decompressed bytes', () => {
      const big = new Uint8Array(gzipSync(Buffer.alloc(3 * 1024 * 1024, 'a')));
      assert.ok(big.length < 1024 * 1024);
      assert.throws(
        () => join(gunzipBytes([big], { maxBytes: 1024 * 1024 })),
        (e: unknown) => e instanceof GzipLimitError && e.limit === 'size' && /more than 1 MiB/.test(e.message),
      );
      assert.equal(join(gunzipBytes([big], { maxBytes: 3 * 1024 * 1024 })).length, 3 * 1024 * 1024);
    });

    it('a gzip bomb is refused once past the free allowance, before its output is held', () => {
      const bomb = new Uint8Array(gzipSync(Buffer.alloc(GZIP_RATIO_FREE + 8 * 1024 * 1024), { level: 9 }));
      let out = 0;
      assert.throws(
        () => {
          for (const c of gunzipBytes(pieces(bomb, 64 * 1024))) out += c.length;
        },
        (e: unknown) => e instanceof GzipLimitError && e.limit === 'ratio' && /gzip bomb/.test(e.message),
      );
      assert.ok(out <= GZIP_RATIO_FREE + 8 * 1024 * 1024, `${out} bytes were handed on`);
    });

    it('text: a character split between two pieces is kept whole', () => {
      const gz = new Uint8Array(gzipSync('Zürich → 東京\n'));
      assert.equal([...textOfBytes(pieces(gz, 3))].join(''), 'Zürich → 東京\n');
      assert.equal([...textOfBytes(pieces(enc.encode('Zürich → 東京\n'), 1))].join(''), 'Zürich → 東京\n');
    });

    const hints: [trailer: number[], compressed: number, want: number][] = [
      [[0x10, 0x27, 0, 0], 100, 10_000],
      [[0xff, 0xff, 0xff, 0xff], 100, 0xffffffff],
      [[1, 0, 0, 0], 100, 100],
      [[1, 0], 100, 100],
    ];
    for (const [trailer, compressed, want] of hints) {
      it(`the trailer ${JSON.stringify(trailer)} of a ${compressed}-byte file hints ${want}`, () =>
        assert.equal(gzipSizeHint(new Uint8Array(trailer), compressed), want));
    }
  });
}

// Characters of 2, 3 and 4 bytes (ü, →, 東, 𝄞) at every place a piece can end, through each decoder
// the readers use: TextDecoder (no node modules: the browser) and node's StringDecoder (the Node shells).
describe('UTF-8 split between pieces', () => {
  const text = 'a ü → 東京 𝄞 z\n';
  const bytes = enc.encode(text);
  const decoders: [string, MakeUtf8Decoder][] = [
    ['TextDecoder', textDecoderUtf8],
    ['StringDecoder', stringDecoderUtf8],
  ];
  for (const [name, make] of decoders) {
    it(`${name}: cut after every byte, and into pieces of every size`, () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const d = make();
        assert.equal(d.write(bytes.subarray(0, cut)) + d.write(bytes.subarray(cut)) + d.end(), text, `cut at byte ${cut}`);
      }
      for (let size = 1; size <= 5; size++) assert.equal([...textWith(pieces(bytes, size), fflateInflater, {}, make)].join(''), text, `pieces of ${size}`);
    });
    it(`${name}: a character cut off at the end of the input is one U+FFFD, not lost or thrown`, () => {
      const d = make();
      assert.equal(d.write(bytes.subarray(0, 3)) + d.end(), 'a \ufffd');
    });
  }
});

describe('UTF-8 split between pieces, through both file paths (plain, gzipped)', () => {
  // the zlib inflater hands over 64 KiB at a time and the plain reader reads 64 KiB at a time:
  // a character of each length is put across boundaries of both
  const filler = (n: number) => 'x'.repeat(n);
  const at = (boundary: number, ch: string) => filler(boundary - 1) + ch;
  const text = `${at(256 * 1024, 'ü')}${at(256 * 1024 - 2, '東')}${at(512 * 1024 - 3, '𝄞')}${filler(100)}\n`;
  const dir = mkdtempSync(joinPath(tmpdir(), 'gzip-utf8-'));
  const plain = joinPath(dir, 'plain.json');
  const gz = joinPath(dir, 'zipped.json.gz');
  writeFileSync(plain, text);
  writeFileSync(gz, gzipSync(text));
  const cases: [name: string, read: () => Iterable<string>][] = [
    ['a plain file (readChunks, 64 KiB reads)', () => readChunks(plain)],
    ['a gzipped file (readChunks, zlib, 64 KiB pieces)', () => readChunks(gz)],
    ['gzipped bytes in 4 KiB pieces (gunzipText)', () => gunzipText(pieces(new Uint8Array(gzipSync(text)), 4096))],
    ['gzipped bytes through fflate and TextDecoder', () => textWith(pieces(new Uint8Array(gzipSync(text)), 4096), fflateInflater)],
  ];
  for (const [name, read] of cases) {
    it(name, () => {
      const got = [...read()].join('');
      assert.equal(got.length, text.length);
      assert.ok(got === text, 'the decoded text differs');
    });
  }
  it('(clean-up)', () => rmSync(dir, { recursive: true, force: true }));
});
