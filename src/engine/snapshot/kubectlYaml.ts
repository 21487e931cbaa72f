/**
 * The YAML that Kubernetes' tools print (`kubectl get -o yaml`: sigs.k8s.io/yaml over go-yaml's
 * emitter; the yaml package's own output too), and hand-written manifests, read in one pass over
 * the text without building the yaml package's tree: block mappings and sequences (`- ` at the
 * parent's indentation or deeper), plain, single- and double-quoted scalars on one line or folded
 * over several (flowScalar.ts), `|` / `|-` / `|+` literal blocks, flow collections of scalars and
 * of each other on one line or over several (flowCollection.ts), and `---` between documents.
 *
 * It gives the value the yaml package gives with YAML_OPTIONS (the core schema), or nothing:
 * anything outside that subset (an anchor, alias, tag, directive, tab, `>` folded block scalar, a
 * scalar's continuation indented too little, a duplicate key, an empty document, a nesting deeper
 * than the engine reads...) makes it give up on the whole text, and the caller reads the text
 * with the yaml package as before, with its errors, warnings and positions. So nothing it accepts
 * can carry a problem of the yaml package's own.
 *
 * Comments are read where YAML allows them: on their own line (at any indentation) and after a
 * value, a `key:`, a `-`, a `|` header, `items:` or `---`. A comment line between a plain
 * scalar's lines, and one after a value that is absent (null), give up.
 *
 * Positions: each document's contents range as the yaml package gives it (`doc.contents.range`),
 * and the ranges of the objects of its top-level sequence or of its `items:` (a List's): what the
 * loader places every object at. Any other position is for a problem, rare: the caller reads the
 * text with the yaml package again for it. Comment lines after a collection's last value move
 * these ends as the yaml package's parser moves them (takeComments, closing), and so does an
 * absent last value (absent).
 *
 * Over 600 lines because the Reader is one class over one cursor (its position, indentation and
 * comment state), which its block, scalar and `items:` methods share; what needs none of it, flow
 * collections and scalars, is in flowCollection.ts, flowScalar.ts and plainScalar.ts.
 */

import { copied, detachStrings } from './yamlDocStream';
import { plainKey, plainValue } from './plainScalar';
import {
  COLON,
  CONTROL,
  CR,
  DASH,
  DQUOTE,
  GIVE_UP,
  HASH,
  MAX_KEY_CHARS,
  NL,
  CLOSE_MAP,
  OPEN_MAP,
  OPEN_SEQ,
  SPACE,
  SQUOTE,
  TAB,
  doubleQuoted,
  plainLine,
  plainLines,
  plainStart,
  scalar,
  singleQuoted,
} from './flowScalar';
import { flow, flowCollection } from './flowCollection';

/** One document read. */
export interface KubectlYamlDocument {
  value: unknown;
  /** the contents' range: start and end offsets, as the yaml package's `doc.contents.range[0..1]` */
  start: number;
  end: number;
  /** the ranges of the objects of its top-level sequence, or of its `items:` sequence: [start0, end0, start1, end1, ...] */
  items?: number[];
  /** `items` are those of the top-level sequence (true) or of `items:` (false) */
  topLevelItems?: boolean;
}

/** Collections nested deeper are left to the yaml package, whose tree the loader checks (findTooDeep, MAX_NESTING_DEPTH). */
export const KUBECTL_YAML_MAX_DEPTH = 64;

class Reader {
  /** the current content line: where it starts, its indentation, and whether it is a `---` line or the end */
  lineStart = 0;
  col = 0;
  at = 0;
  eof = false;
  marker = false;
  /**
   * The end of the last value read, as its parent's range counts it (the yaml package's `range[2]`):
   * after the line break of its last line, or of the comment lines that belong to it.
   */
  contentEnd = 0;
  /** the end of the last collection read, as its own range counts it (`range[1]`): before the comment lines after it */
  ownEnd = 0;
  /** the end of the last flow collection read: after its closing bracket */
  flowEnd = 0;
  /** set for the next value only, when it is a List's `items:`: where a flow sequence's objects are (flowCollection's `ranges`) */
  private flowItems: number[] | undefined;
  /** the comment lines seek passed over before the current line (column, end after the line break), from `commentsFrom` on not yet part of a value */
  private readonly commentCols: number[] = [];
  private readonly commentEnds: number[] = [];
  private commentsFrom = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly detach: boolean,
  ) {}

  /** Moves to the first content line from `p`, a line's start; blank lines and comment lines are skipped (the comments noted). */
  seek(p: number): void {
    const t = this.text;
    const n = t.length;
    this.commentCols.length = 0;
    this.commentEnds.length = 0;
    this.commentsFrom = 0;
    for (;;) {
      if (p >= n) {
        this.eof = true;
        this.marker = false;
        this.lineStart = this.at = n;
        this.col = 0;
        return;
      }
      let q = p;
      let c = t.charCodeAt(q);
      while (c === SPACE) c = t.charCodeAt(++q);
      if (c === NL) {
        p = q + 1;
        continue;
      }
      if (q >= n) {
        // spaces up to the end
        p = n;
        continue;
      }
      if (c === HASH) {
        const e = this.text.indexOf('\n', q);
        this.commentCols.push(q - p);
        p = e === -1 ? n : e + 1;
        this.commentEnds.push(p);
        continue;
      }
      if (c === TAB || c === CR) throw GIVE_UP;
      this.lineStart = p;
      this.col = q - p;
      this.at = q;
      this.eof = false;
      this.marker = false;
      if (q === p) {
        if (c === DASH && t.startsWith('---', q)) {
          const after = t.charCodeAt(q + 3);
          if (after === NL || q + 3 >= n || (after === SPACE && isLineEnd(t, q + 3))) this.marker = true;
          else if (after === SPACE || after === TAB) throw GIVE_UP;
        } else if (c === 0x2e && t.startsWith('...', q)) throw GIVE_UP;
        else if (c === 0x25) throw GIVE_UP;
      }
      return;
    }
  }

  /**
   * After a flow scalar (or `{}`, `[]`) in a collection at `indent`: the comment lines right after it
   * that are indented deeper are the scalar's (the yaml package's parser, atIndentedComment), and so
   * is the range up to their end.
   */
  private takeComments(indent: number): void {
    let k = this.commentsFrom;
    while (k < this.commentCols.length && this.commentCols[k] > indent) k++;
    if (k > this.commentsFrom) {
      this.contentEnd = this.commentEnds[k - 1];
      this.commentsFrom = k;
    }
  }

  /**
   * A collection at `indent` (not the root) ends at the current line. Its own range ends with its
   * last value (ownEnd). The comment lines before the current line stay in it when one of them is
   * as deep as its items and it is not at column 0 (the yaml package's parser, popping a
   * collection); then its range as its parent's last value ends at the current line's content.
   * Otherwise they pass to its parent, which decides the same when it ends here too.
   */
  private closing(indent: number): void {
    this.ownEnd = this.contentEnd;
    if (indent === 0) return;
    for (let k = this.commentsFrom; k < this.commentCols.length; k++) {
      if (this.commentCols[k] >= indent) {
        this.contentEnd = this.at;
        this.commentsFrom = this.commentCols.length;
        return;
      }
    }
  }

  /** A value that is absent (null) with comment lines before the next content: the yaml package's range for it is not followed here. */
  private noComments(): void {
    if (this.commentsFrom < this.commentCols.length) throw GIVE_UP;
  }

  /** Past blanks, and a comment after one, from `p` (after a value, a `:` or a `-`): the line's end, or -1 when something else follows. */
  private restOfLine(p: number): number {
    const t = this.text;
    const from = p;
    while (t.charCodeAt(p) === SPACE) p++;
    if (p >= t.length || t.charCodeAt(p) === NL) return p;
    if (t.charCodeAt(p) === HASH && (p > from || t.charCodeAt(p - 1) === SPACE)) return this.lineEnd(p);
    return -1;
  }

  /** The end of the line that `p` is on: its line break's offset, or the text's end. */
  private lineEnd(p: number): number {
    const nl = this.text.indexOf('\n', p);
    return nl === -1 ? this.text.length : nl;
  }

  /** After the line break at `e` (or the end). */
  private nextLine(e: number): number {
    return e < this.text.length ? e + 1 : e;
  }

  isSeqLine(): boolean {
    const t = this.text;
    if (t.charCodeAt(this.at) !== DASH) return false;
    const c = t.charCodeAt(this.at + 1);
    return c === SPACE || c === NL || this.at + 1 >= t.length;
  }

  /** The node at the current line: a block mapping or sequence starting at `this.at` (column `this.col`). */
  block(depth: number): unknown {
    if (depth > this.maxDepth) throw GIVE_UP;
    return this.isSeqLine() ? this.seq(this.col, depth) : this.map(this.col, depth);
  }

  map(indent: number, depth: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    do {
      const afterColon = this.nextKey(obj);
      const key = this.keyText;
      obj[key] = this.valueAfter(afterColon, indent, depth, true);
    } while (this.mapGoesOn(indent));
    this.closing(indent);
    return obj;
  }

  /** The key at `this.at` (left in keyText), new to `obj`; the position after its colon. Gives up on a line that is no key, or a key met before. */
  private nextKey(obj: Record<string, unknown>): number {
    const afterColon = this.key(this.at);
    if (afterColon < 0 || this.keyText in obj) throw GIVE_UP;
    return afterColon;
  }

  /** After a value: whether the mapping at `indent` has another key (false at its end); gives up on a line it cannot hold. */
  private mapGoesOn(indent: number): boolean {
    if (this.eof || this.marker || this.col < indent) return false;
    if (this.col > indent || this.isSeqLine()) throw GIVE_UP;
    return true;
  }

  seq(indent: number, depth: number): unknown[] {
    const arr: unknown[] = [];
    const t = this.text;
    for (;;) {
      let q = this.at + 1;
      while (t.charCodeAt(q) === SPACE) q++;
      const c = t.charCodeAt(q);
      if (c === NL || q >= t.length || c === HASH) {
        arr.push(this.belowOrNull(q, indent, depth, false, arr.length > 0 && this.commentsFrom < this.commentCols.length));
      } else if (c === TAB || c === CR) {
        throw GIVE_UP;
      } else {
        // the item's content starts on the `-` line: a compact mapping or sequence at its column, or a scalar
        this.col = q - this.lineStart;
        this.at = q;
        if (this.isSeqLine()) {
          if (depth + 1 > this.maxDepth) throw GIVE_UP;
          arr.push(this.seq(this.col, depth + 1));
        } else if (this.key(q) >= 0) {
          if (depth + 1 > this.maxDepth) throw GIVE_UP;
          arr.push(this.map(this.col, depth + 1));
        } else {
          arr.push(this.inlineValue(q, indent, depth));
        }
      }
      if (this.eof || this.marker || this.col < indent) break;
      if (this.col > indent) throw GIVE_UP;
      if (!this.isSeqLine()) break;
    }
    this.closing(indent);
    return arr;
  }

  /** A mapping value or sequence item that starts after `p` on its line: what follows, inline or below. */
  private valueAfter(p: number, indent: number, depth: number, inMap: boolean): unknown {
    const t = this.text;
    while (t.charCodeAt(p) === SPACE) p++;
    const c = t.charCodeAt(p);
    if (c === NL || p >= t.length || c === HASH) return this.belowOrNull(p, indent, depth, inMap);
    if (c === TAB || c === CR) throw GIVE_UP;
    return this.inlineValue(p, indent, depth);
  }

  /**
   * A value on the lines below (`p`, after the blanks that follow a `:` or `-`, is the line's end or
   * a comment): a block node deeper in, a sequence at a mapping's own indentation, or null.
   * `commentBefore`: a sequence item (not the first) with comment lines before its `-` that no
   * value before took, which the yaml package reads as the item's own.
   */
  private belowOrNull(p: number, indent: number, depth: number, inMap: boolean, commentBefore = false): unknown {
    const e = this.lineEnd(p);
    this.contentEnd = this.nextLine(e);
    this.seek(this.nextLine(e));
    if (this.eof || this.marker) return this.absent(p, e, commentBefore);
    if (this.col > indent) {
      // a flow collection on its own line (the yaml package's own layout of a long one): its lines are checked against this collection's
      const c = this.text.charCodeAt(this.at);
      return c === OPEN_MAP || c === OPEN_SEQ ? this.inlineValue(this.at, indent, depth) : this.block(depth + 1);
    }
    if (inMap && this.col === indent && this.isSeqLine()) {
      if (depth + 1 > this.maxDepth) throw GIVE_UP;
      return this.seq(indent, depth + 1);
    }
    return this.absent(p, e, commentBefore);
  }

  /**
   * An absent value (null) after a `:` or `-` whose line ends at `e`, `p` after the blanks that
   * follow the indicator: the end its parent's range counts. The yaml package places an empty
   * scalar right after those blanks, before the line break (emptyScalarPosition); when its
   * properties hold a comment (after the indicator, or for a sequence item on a line before its
   * `-`), its range reaches the end of those tokens: the line break after the indicator. Blank
   * lines after it join those tokens or not depending on what comes next (Parser.blockMap, "assign
   * newline-separated not indented empty tokens to following node"), and comment lines after the
   * value do too: both are left to the yaml package.
   */
  private absent(p: number, e: number, commentBefore: boolean): null {
    this.noComments();
    if (!commentBefore && this.text.charCodeAt(p) !== HASH) this.contentEnd = p;
    else if (this.lineStart !== this.nextLine(e)) throw GIVE_UP;
    return null;
  }

  /**
   * A value that starts at `p` on its line, in a collection at `depth`: a scalar (folded over the
   * lines below too), `{}`, a flow sequence of scalars on one line or a literal block; then the next
   * content line.
   */
  private inlineValue(p: number, indent: number, depth: number): unknown {
    const t = this.text;
    const c = t.charCodeAt(p);
    let value: unknown;
    let end: number;
    let plain = false;
    if (c === DQUOTE) {
      end = doubleQuoted(t, p, indent);
      value = scalar.text;
    } else if (c === SQUOTE) {
      end = singleQuoted(t, p, indent);
      value = scalar.text;
    } else if (c === 0x7c /* | */) {
      return this.literal(p, indent);
    } else if (c === OPEN_MAP && t.charCodeAt(p + 1) === CLOSE_MAP) {
      // kubectl's empty mapping (`f:metadata: {}`, `resources: {}`): the hot path
      value = {};
      end = this.flowEnd = p + 2;
    } else if (c === OPEN_SEQ || c === OPEN_MAP) {
      // flowItems is set only by flowItemsAt, for the `[` it passes here: taken in this branch alone, off the scalars' path
      const ranges = this.flowItems;
      this.flowItems = undefined;
      end = this.flowEnd = flowCollection(t, p, indent, this.maxDepth - depth, plainValue, plainKey, ranges);
      value = this.detach ? detachStrings(flow.value) : flow.value;
    } else {
      end = plainLine(t, p);
      plain = true;
    }
    // nothing but spaces (and a comment) after the value on its line
    end = this.restOfLine(end);
    if (end < 0) throw GIVE_UP;
    this.contentEnd = this.nextLine(end);
    this.seek(this.nextLine(end));
    if (plain) {
      // a line deeper in than the value's owner continues a plain scalar (not after a comment: the yaml package's error)
      if (!scalar.comment && !this.eof && !this.marker && this.col > indent) {
        end = this.restOfLine(plainLines(t, this.contentEnd, indent));
        this.contentEnd = this.nextLine(end);
        this.seek(this.nextLine(end));
      }
      value = plainValue(scalar.text);
    }
    this.takeComments(indent);
    if (this.detach && typeof value === 'string') value = copied(value);
    // any other line deeper in is an error: the yaml package's
    if (!this.eof && !this.marker && this.col > indent) throw GIVE_UP;
    return value;
  }

  /** the text of the last key read */
  keyText = '';

  /**
   * A mapping key at `p` followed by `:` and a blank or the line's end: the offset after the `:` (and
   * the key's text in keyText), or -1 when the line holds no key.
   */
  key(p: number): number {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === DQUOTE || c === SQUOTE) {
      // a quoted scalar over several lines is no key (a value, or the yaml package's error)
      const e = c === DQUOTE ? doubleQuoted(t, p, -1) : singleQuoted(t, p, -1);
      if (e < 0 || t.charCodeAt(e) !== COLON) return -1;
      const a = t.charCodeAt(e + 1);
      if (a !== SPACE && a !== NL && e + 1 < t.length) throw GIVE_UP;
      if (e - p > MAX_KEY_CHARS) throw GIVE_UP;
      this.keyText = scalar.text;
      return e + 1;
    }
    // a flow collection is no key here (`[a]: b` is given up on after the value): a sequence item's value
    if (c === OPEN_SEQ || c === OPEN_MAP) return -1;
    plainStart(t, p);
    const n = t.length;
    for (let i = p; i < n; i++) {
      const ch = t.charCodeAt(i);
      if (ch === COLON) {
        const a = t.charCodeAt(i + 1);
        if (a === SPACE || a === NL || i + 1 >= n) {
          if (t.charCodeAt(i - 1) === SPACE || i === p || i - p > MAX_KEY_CHARS) throw GIVE_UP;
          this.keyText = plainKey(t, p, i);
          return i + 1;
        }
        if (a === TAB) throw GIVE_UP;
      } else if (ch === NL) return -1;
      else if (ch === TAB || ch === CR) throw GIVE_UP;
      else if (ch === HASH && t.charCodeAt(i - 1) === SPACE) return -1; // a comment: no key before it
    }
    return -1;
  }

  /**
   * A literal block scalar (`|`, `|-`, `|+`) whose header is at `p`, its lines indented deeper than
   * `indent`; then the next content line.
   */
  private literal(p: number, indent: number): string {
    const t = this.text;
    const n = t.length;
    let chomp = 0; // 0 clip, -1 strip, 1 keep
    let h = p + 1;
    const hc = t.charCodeAt(h);
    if (hc === DASH || hc === 0x2b /* + */) {
      chomp = hc === DASH ? -1 : 1;
      h++;
    }
    h = this.restOfLine(h);
    if (h < 0) throw GIVE_UP;
    let lineAt = this.nextLine(h);
    // the block's indentation: its first line's; a blank line before it is left to the yaml package
    let m = 0;
    while (t.charCodeAt(lineAt + m) === SPACE) m++;
    const first = t.charCodeAt(lineAt + m);
    if (lineAt >= n || m <= indent || first === NL || lineAt + m >= n || first === TAB || first === CR) throw GIVE_UP;
    const lines: string[] = [];
    /** empty lines after the last content line */
    let empties = 0;
    let end = lineAt;
    while (lineAt < n) {
      let s = 0;
      while (s < m && t.charCodeAt(lineAt + s) === SPACE) s++;
      const e = this.lineEnd(lineAt);
      if (s < m) {
        // an empty line stays in the block; anything else less indented ends it
        if (lineAt + s === e && s === 0) {
          empties++;
          lineAt = this.nextLine(e);
          continue;
        }
        if (lineAt + s === e) throw GIVE_UP;
        break;
      }
      if (lineAt + m === e) throw GIVE_UP; // a line of blanks only, as deep as the block: left to the yaml package
      for (let k = 0; k < empties; k++) lines.push('');
      empties = 0;
      const line = t.slice(lineAt + m, e);
      if (CONTROL.test(line)) throw GIVE_UP;
      lines.push(line);
      lineAt = this.nextLine(e);
      end = lineAt;
    }
    if (chomp === 1 && empties) throw GIVE_UP;
    let value = lines.join('\n');
    if (chomp === 0 || chomp === 1) value += '\n';
    if (this.detach) value = copied(value);
    if (t.charCodeAt(end - 1) !== NL) throw GIVE_UP;
    this.contentEnd = end;
    this.seek(end);
    if (!this.eof && !this.marker && this.col > indent) throw GIVE_UP;
    return value;
  }

  /** The documents of the text (throws GIVE_UP outside the subset). */
  documents(): KubectlYamlDocument[] {
    const docs: KubectlYamlDocument[] = [];
    this.seek(0);
    if (this.marker) this.seek(this.nextLine(this.lineEnd(this.at)));
    for (;;) {
      // an empty document (nothing, or nothing between two `---`) is left to the yaml package
      if (this.eof || this.marker) throw GIVE_UP;
      const doc: KubectlYamlDocument = { value: undefined, start: this.at, end: 0 };
      doc.value = this.isSeqLine() ? this.seqWithItems(this.col, doc, true) : this.mapWithItems(this.col, doc);
      doc.end = this.contentEnd;
      docs.push(doc);
      if (this.eof) return docs;
      if (!this.marker) throw GIVE_UP;
      this.seek(this.nextLine(this.lineEnd(this.at)));
    }
  }

  /** The root mapping, with the ranges of its `items:` sequence's objects. */
  private mapWithItems(indent: number, doc: KubectlYamlDocument): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    do {
      const afterColon = this.nextKey(obj);
      const key = this.keyText;
      if (key === 'items' && this.restOfLine(afterColon) >= 0) {
        const end = this.lineEnd(afterColon);
        this.contentEnd = this.nextLine(end);
        this.seek(this.nextLine(end));
        if (!this.eof && !this.marker && this.col >= indent && this.isSeqLine()) {
          obj[key] = this.seqWithItems(this.col, doc, false);
        } else if (!this.eof && !this.marker && this.col > indent) {
          // `items:` then a flow sequence on its own line (the yaml package's layout of a long one)
          obj[key] = this.text.charCodeAt(this.at) === OPEN_SEQ ? this.flowItemsAt(this.at, indent, doc) : this.block(1);
        } else obj[key] = this.absent(this.firstNonBlank(afterColon), end, false);
      } else if (key === 'items' && this.text.charCodeAt(this.firstNonBlank(afterColon)) === OPEN_SEQ) {
        obj[key] = this.flowItemsAt(this.firstNonBlank(afterColon), indent, doc);
      } else obj[key] = this.valueAfter(afterColon, indent, 0, true);
    } while (this.mapGoesOn(indent));
    // the root mapping ends with its document, not at a line indented less
    if (!this.eof && !this.marker) throw GIVE_UP;
    return obj;
  }

  /** A List's `items:` written as a flow sequence at `p` (`items: [{...}, {...}]`), its objects' ranges recorded as a block one's are. */
  private flowItemsAt(p: number, indent: number, doc: KubectlYamlDocument): unknown {
    const ranges: number[] = [];
    this.flowItems = ranges;
    const value = this.inlineValue(p, indent, 0);
    doc.items = ranges;
    doc.topLevelItems = false;
    return value;
  }

  /** The first offset from `p` that is not a space. */
  private firstNonBlank(p: number): number {
    while (this.text.charCodeAt(p) === SPACE) p++;
    return p;
  }

  /** A sequence whose items' ranges are recorded: the root one, or a root mapping's `items:`. */
  private seqWithItems(indent: number, doc: KubectlYamlDocument, topLevel: boolean): unknown[] {
    const arr: unknown[] = [];
    const ranges: number[] = [];
    const t = this.text;
    const depth = topLevel ? 0 : 1;
    for (;;) {
      let q = this.at + 1;
      while (t.charCodeAt(q) === SPACE) q++;
      const c = t.charCodeAt(q);
      let start: number;
      let end = -1;
      if (c === NL || q >= t.length || c === HASH) {
        arr.push(this.belowOrNull(q, indent, depth, false, arr.length > 0 && this.commentsFrom < this.commentCols.length));
        start = -1;
      } else if (c === TAB || c === CR) {
        throw GIVE_UP;
      } else {
        this.col = q - this.lineStart;
        this.at = q;
        start = q;
        if (!this.isSeqLine() && this.key(q) >= 0) arr.push(this.map(this.col, depth + 1));
        else if (c === OPEN_MAP) {
          // an object in flow: its range ends at its `}`
          arr.push(this.inlineValue(q, indent, depth));
          end = this.flowEnd;
        } else {
          start = -1;
          arr.push(this.isSeqLine() ? this.seq(this.col, depth + 1) : this.inlineValue(q, indent, depth));
        }
      }
      // only an object's range is kept: any other item (below its `-`, a scalar, a sequence) is placed by the yaml package when asked
      ranges.push(start, start < 0 ? -1 : end < 0 ? this.ownEnd : end);
      if (this.eof || this.marker || this.col !== indent || !this.isSeqLine()) break;
    }
    if (!this.eof && !this.marker && this.col > indent) throw GIVE_UP;
    if (!topLevel) this.closing(indent);
    doc.items = ranges;
    doc.topLevelItems = topLevel;
    return arr;
  }
}

/** Nothing but blanks, or blanks and a comment, from `p` (after a blank) to the line's end. */
function isLineEnd(t: string, p: number): boolean {
  while (t.charCodeAt(p) === SPACE) p++;
  return p >= t.length || t.charCodeAt(p) === NL || t.charCodeAt(p) === HASH;
}

/**
 * The documents of a YAML text in the subset above, or undefined: the text is then the yaml
 * package's to read. `maxDepth`: collections nested deeper are left to it too (its own checks).
 * `detach`: no string of the values keeps the text alive (yamlDocStream.ts detachStrings).
 */
export function readKubectlYaml(text: string, detach = false, maxDepth = KUBECTL_YAML_MAX_DEPTH): KubectlYamlDocument[] | undefined {
  try {
    return new Reader(text, maxDepth, detach).documents();
  } catch (e) {
    if (e === GIVE_UP || e instanceof RangeError) return undefined;
    throw e;
  }
}
