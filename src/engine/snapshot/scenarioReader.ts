/**
 * Reading a scenario's YAML with positions: the typed readers (string, enum,
 * duration, `at:` times…) that report a problem with a stable code and the
 * node's position instead of throwing, shared by the top level of the
 * scenario (scenario.ts), its events (parseEvents.ts) and its expectations
 * (parseExpectations.ts).
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { CONDITION_STATUSES, TAINT_EFFECTS } from '../model/convert';
import { parseDuration, parseTimestamp } from '../model/time';
import type { Taint, TaintEffect } from '../model/types';
import { zoneLabelOfKey } from '../model/zones';
import type { Problem, Severity, SourcePosition } from '../problems';
import { closest } from '../config/suggest';
import { LineIndex } from './positions';
import { dirnamePath, type InputFs } from './source';
import { MAX_ALIAS_COUNT } from './yamlOptions';
import type { LoadedSnapshot, TimeSpec } from './types';
import type { LoadOptions } from './load';

export interface ScenarioOptions {
  maxFileBytes?: number;
  /**
   * Snapshots already loaded, by the files they were loaded from: a scenario
   * whose snapshot: files are all here reuses the loaded snapshot instead of
   * parsing them again (the language server, where every edit of a scenario is
   * checked again and its snapshot can be 400 MiB). Read-only for every user;
   * the caller empties it when a file may have changed.
   */
  snapshots?: Map<string, LoadedSnapshot>;
  /** how the `snapshot:` files are loaded (what each object keeps, from what size they stream) */
  snapshotLoad?: Pick<LoadOptions, 'keepOf' | 'streamFilesAbove'>;
  /** read snapshot:/configFile: paths outside the scenario's folder tree (pathPolicy.ts) */
  allowOutside?: boolean;
  /** folders besides the scenario's whose trees may be read (a workspace) */
  roots?: readonly string[];
}

/** The closest of `known` to `word`, when it is close enough to be a typo (one rule for the whole engine). */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  return closest(word, known);
}

export const suggest = (word: string, known: readonly string[]): string => {
  const s = didYouMean(word, known);
  return s ? ` (did you mean ${s}?)` : '';
};

/**
 * A did-you-mean for a zone no node is in, written as the zone was (`Zone/` or not). An event's `zone:` is the
 * zone label's value, an expectation's the zone's key, `region/zone` when nodes have both labels (GetZoneKey):
 * one written in the other's form is too far from it for a typo, so the zone with the same last part comes first.
 */
export function suggestZone(written: string, zones: Iterable<string>): string {
  const hint = zoneMeant(written, zones);
  return hint ? ` (did you mean ${hint}?)` : '';
}

/** suggestZone's zone itself (undefined when none is close). */
export function zoneMeant(written: string, zones: Iterable<string>): string | undefined {
  const prefix = written.startsWith('Zone/') ? 'Zone/' : '';
  const given = strip('Zone/', written);
  const keys = [...zones].filter(Boolean);
  const labels = keys.map(zoneLabelOfKey).filter(Boolean);
  const hint = keys.find((k) => k.endsWith(`/${given}`) || given.endsWith(`/${k}`)) ?? didYouMean(given, [...keys, ...labels]);
  return hint ? `${prefix}${hint}` : undefined;
}

/** Where a target written inside an event's action (`taint: {node: node-a1, key: k}`) goes: an unknown-field hint. */
export function targetsBeside(action: string): Record<string, string> {
  const hint = ` (the nodes an event acts on are named beside ${action}:, at the event's level, not inside it)`;
  return { node: hint, nodes: hint, zone: hint, selector: hint };
}

/** The longest of `known` that `word` begins with, as a did-you-mean (`kubeletStops` → kubelet): the quick fix renames the key. */
export function suggestPrefix(word: string, known: readonly string[]): string {
  const lower = word.toLowerCase();
  const k = [...known].sort((a, b) => b.length - a.length).find((x) => lower.startsWith(x.toLowerCase()));
  return k ? ` (did you mean ${k}?)` : '';
}

export const quoteList = (xs: readonly string[]) => xs.join(', ');

/** `ns/name`, or `name` in namespace default. */
export function parseNsName(text: string): string | undefined {
  const parts = text.split('/');
  if (parts.some((p) => p === '') || parts.length > 2) return undefined;
  return parts.length === 1 ? `default/${parts[0]}` : text;
}

/** Parses a taint written as `key[=value]:Effect`. */
export function parseTaintText(text: string): Taint | { error: string } {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return { error: `expected key[=value]:Effect, found ${JSON.stringify(text)}` };
  const effect = text.slice(colon + 1);
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) {
    // the suggestion is the whole text: the quick fix replaces the value the problem is on
    const meant = didYouMean(effect, TAINT_EFFECTS);
    return {
      error: `expected a taint effect of ${quoteList(TAINT_EFFECTS)}, found ${JSON.stringify(effect)}${meant ? ` (did you mean ${text.slice(0, colon + 1)}${meant}?)` : ''}`,
    };
  }
  const kv = text.slice(0, colon);
  const eq = kv.indexOf('=');
  const taint: Taint = { key: eq === -1 ? kv : kv.slice(0, eq), effect: effect as TaintEffect };
  if (eq !== -1) taint.value = kv.slice(eq + 1);
  if (!taint.key) return { error: `a taint needs a key, found ${JSON.stringify(text)}` };
  return taint;
}

export class ScenarioReader {
  readonly problems: Problem[] = [];
  /**
   * A snapshot file the scenario names was not read (missing, outside the workspace, unreadable):
   * its objects are unknown, so a name the events or expectations give cannot be said to be
   * missing, and saying so would bury the one error that matters under false ones.
   */
  snapshotUnread = false;
  readonly lines: LineIndex;
  readonly dir: string;

  constructor(
    readonly text: string,
    readonly file: string,
    readonly doc: Document.Parsed,
    readonly fs: InputFs | undefined,
    readonly options: ScenarioOptions,
  ) {
    this.lines = new LineIndex(text);
    this.dir = dirnamePath(file);
  }

  pos(node: unknown): SourcePosition | undefined {
    const r = (node as YamlNode | null | undefined)?.range;
    if (!r) return undefined;
    let end = r[1];
    while (end > r[0] && /\s/.test(this.text[end - 1])) end--;
    return this.lines.position(this.file, r[0], end);
  }

  /** The position of a scalar's text, inside its quotes when it is quoted (flags are located within it). */
  textPos(node: unknown): SourcePosition | undefined {
    const n = node as (YamlNode & { type?: string }) | null | undefined;
    const r = n?.range;
    if (!r || (n?.type !== 'QUOTE_DOUBLE' && n?.type !== 'QUOTE_SINGLE')) return this.pos(node);
    return this.lines.position(this.file, r[0] + 1, Math.max(r[0] + 1, r[1] - 1));
  }

  report(code: string, severity: Severity, message: string, node?: unknown): void {
    const p: Problem = { code, severity, message };
    const position = this.pos(node) ?? { file: this.file, line: 1, column: 1 };
    p.position = position;
    this.problems.push(p);
  }

  js(node: unknown): unknown {
    if (node === null || node === undefined) return null;
    const n = node as YamlNode;
    return typeof n.toJS === 'function' ? n.toJS(this.doc, { maxAliasCount: MAX_ALIAS_COUNT }) : node;
  }

  /**
   * The pairs of a mapping, reporting unknown keys (with did-you-mean, or where a key that belongs
   * elsewhere goes: `aliases`, for the keys people carry over from other tools' files).
   */
  pairs(
    node: unknown,
    known: readonly string[] | undefined,
    where: string,
    aliases?: Readonly<Record<string, string>>,
  ): Map<string, Pair<YamlNode, YamlNode | null>> {
    const out = new Map<string, Pair<YamlNode, YamlNode | null>>();
    if (!isMap(node)) return out;
    for (const pair of (node as YAMLMap<YamlNode, YamlNode | null>).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined) {
        this.report('wrong-type', 'error', `expected a plain key in ${where}`, pair.key);
        continue;
      }
      if (known && !known.includes(key)) {
        this.report(
          'unknown-field',
          'error',
          `unknown field ${JSON.stringify(key)} in ${where}${(Object.hasOwn(aliases ?? {}, key) ? aliases![key] : '') || suggest(key, known)}; expected one of ${quoteList(known)}`,
          pair.key,
        );
        continue;
      }
      out.set(key, pair);
    }
    return out;
  }

  string(node: unknown, what: string): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    this.report('wrong-type', 'error', `expected ${what} as a string, found ${this.describe(node)}`, node);
    return undefined;
  }

  enumValue<T extends string>(node: unknown, values: readonly T[], what: string): T | undefined {
    const s = isScalar(node) ? node.value : undefined;
    if (typeof s === 'string' && (values as readonly string[]).includes(s)) return s as T;
    // a tense or a form of the word (stopped, started, Failing) is too far for a typo's distance: its stem says what was meant
    const shown = typeof s === 'string' ? JSON.stringify(s) + (suggest(s, values) || suggestPrefix(s, values)) : this.describe(node);
    this.report('bad-value', 'error', `expected ${what} to be one of ${quoteList(values)}, found ${shown}`, node);
    return undefined;
  }

  integer(node: unknown, what: string, min: number): number | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min) return v;
    this.report(
      'wrong-type',
      'error',
      `expected ${what} as a whole number${min > 0 ? ` of ${min} or more` : min === 0 ? ' of 0 or more' : ''}, found ${this.describe(node)}`,
      node,
    );
    return undefined;
  }

  boolean(node: unknown, what: string): boolean | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'boolean') return v;
    this.report('wrong-type', 'error', `expected ${what} as true or false, found ${this.describe(node)}`, node);
    return undefined;
  }

  /** A condition status: "True"/"False"/"Unknown" (YAML's unquoted True/False booleans are accepted). */
  conditionStatus(node: unknown, what: string): string | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'boolean') return v ? 'True' : 'False';
    if (typeof v === 'string' && (CONDITION_STATUSES as readonly string[]).includes(v)) return v;
    this.report(
      'bad-condition-status',
      'error',
      `expected ${what} to be "True", "False" or "Unknown", found ${typeof v === 'string' ? JSON.stringify(v) + suggest(v, CONDITION_STATUSES) : this.describe(node)}`,
      node,
    );
    return undefined;
  }

  duration(node: unknown, what: string): number | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (v === 0) return 0;
    if (typeof v === 'string') {
      const d = parseDuration(v);
      if (d !== undefined) return d;
      this.report('bad-duration', 'error', `expected ${what} as a duration such as 30s, 1m30s or 100ms, found ${JSON.stringify(v)}`, node);
      return undefined;
    }
    this.report('bad-duration', 'error', `expected ${what} as a duration with a unit (such as 30s, 1m30s or 100ms), found ${this.describe(node)}`, node);
    return undefined;
  }

  describe(node: unknown): string {
    if (node === null || node === undefined) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      const v = node.value;
      if (v === null) return 'null';
      if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
      return `${typeof v} ${String(v)}`;
    }
    return 'an unexpected value';
  }

  /** `at:` — an offset from startTime (with a unit) or an RFC3339 time. */
  at(node: unknown, where: string): TimeSpec | undefined {
    if (node === undefined) return undefined;
    const v = isScalar(node) ? node.value : undefined;
    if (v === 0) return { offset: 0 };
    if (typeof v === 'string') {
      const d = parseDuration(v);
      if (d !== undefined) {
        if (d < 0) {
          this.report('bad-duration', 'error', `${where}: at: must not be negative, found ${JSON.stringify(v)}`, node);
          return undefined;
        }
        return { offset: d };
      }
      const t = parseTimestamp(v);
      if (t !== undefined) return { time: t };
    }
    const unit = isScalar(node) && typeof node.value === 'number' ? ' (a duration needs a unit)' : '';
    this.report(
      'bad-duration',
      'error',
      `${where}: expected at: as an offset from startTime with a unit (30s, 1m30s) or an RFC3339 time, found ${this.describe(node)}${unit}`,
      node,
    );
    return undefined;
  }
}

export function strip(prefix: string, s: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

export function formatAt(at: TimeSpec): string {
  if ('offset' in at) return formatOffset(at.offset);
  return new Date(Math.floor(at.time / 1000)).toISOString();
}

function formatOffset(us: number): string {
  // Go-style, as written in scenarios
  const s = us / 1_000_000;
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60),
    sec = s % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${Number(sec.toFixed(6))}s`;
}

/** The path of a node inside the document (for positions of problems found after toJS). */
export function nodePath(doc: Document, target: unknown): (string | number)[] {
  const path: (string | number)[] = [];
  const visit = (node: unknown): boolean => {
    if (node === target) return true;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        path.push(key);
        if (visit(pair.value)) return true;
        path.pop();
      }
    } else if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        path.push(i);
        if (visit(node.items[i])) return true;
        path.pop();
      }
    }
    return false;
  };
  return visit(doc.contents) ? path : [];
}

/** The node at `path`, or at the longest prefix of it that exists. */
export function deepestNode(doc: Document, path: (string | number)[]): unknown {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    if (node !== undefined && node !== null && typeof node === 'object') return node;
  }
  return undefined;
}
