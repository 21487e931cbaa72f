/**
 * Issue 16's untried design, measured as a ceiling before any engine change: the full-detail
 * export's item step as it would be if an object's `raw` were not its parsed tree but a reference
 * to its text. Each item is cut out as `fullParse` cuts it (the generator's lengths: no separator
 * search, no line counting, no sharing, no problems placed), parsed, turned into its record by
 * the engine's own `toRecord` (validation included), put in a map by kind and name, and its `raw`
 * is then, by `mode`:
 *   tree      the parsed object (today's model, without sharing): for reference
 *   none      nothing: the records alone, the floor of any `raw`
 *   novalid   as none, the records made by the kind's converter without `validateObject` (the
 *             limits walk, names, labels): what validation adds to the floor
 *   offset    the item's index; its offset and length in the file in typed arrays (read again when wanted)
 *   bytes     the item's index; its text without the line breaks and indentation (a JSON string
 *             cannot hold a raw line break, so removing "\n" and the spaces after it is exact),
 *             written as UTF-8 into 64 MiB buffers outside V8's heap
 *   bytesjs   the same, the compact text made by JSON.stringify of the parsed item instead
 *   string    the compact text kept as a string on V8's heap: JSON.stringify's, which is flat (the
 *             replace of `bytes` gives a rope of slices of the read pieces, which keeps them all)
 * Reported beside the timed part: the bytes kept, and the time to read every `raw` back into a
 * tree (what export/state would then pay), untimed in the ratio.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readChunks } from '../src/platform/nodeFs';
import {
  isEngineKind,
  toDaemonSetRecord,
  toLeaseRecord,
  toNodeRecord,
  toPodRecord,
  toRecord,
  toReplicaSetRecord,
  type EngineKind,
} from '../src/engine/model/convert';
import type { KObject, ObjectRecord } from '../src/engine/model/types';

const CONVERT: Record<EngineKind, (raw: KObject) => ObjectRecord | undefined> = {
  Node: toNodeRecord,
  Pod: toPodRecord,
  ReplicaSet: toReplicaSetRecord,
  DaemonSet: toDaemonSetRecord,
  Lease: toLeaseRecord,
};

export type RawMode = 'tree' | 'none' | 'novalid' | 'offset' | 'bytes' | 'bytesjs' | 'string';
export const RAW_MODES: readonly RawMode[] = ['tree', 'none', 'novalid', 'offset', 'bytes', 'bytesjs', 'string'];

const SLAB = 64 * 1024 * 1024;
const INDENT = /\n */g;

/** Grows by doubling; Float64 so that offsets past 2^31 fit. */
class Column {
  a = new Float64Array(1 << 16);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

export interface ProtoOut {
  protoMs: number;
  protoCpuMs: number;
  items: number;
  records: number;
  keptBytes: number;
  /** the raws read back and parsed (every record's, for the modes that keep one) */
  readBack: number;
  readBackMs: number;
  readBackCpuMs: number;
  heapUsed: number;
  /** peak RSS at the end of the timed part (before reading back) */
  peakRss: number;
}

/** `readBack`, when given, receives every object read back, in the order read (for tests: that nothing is lost) */
export function fullRawProto(
  full: { json: string; lengths: string; headChars: number },
  mode: RawMode,
  gc: () => void,
  readBack?: (object: unknown) => void,
): ProtoOut {
  const lengths = JSON.parse(readFileSync(full.lengths, 'utf8')) as number[];
  const maps = new Map<string, Map<string, { raw: unknown }>>();
  const offsets = new Column();
  const sizes = new Column();
  const slabOf = new Column();
  const slabs: Buffer[] = [];
  let slab = Buffer.allocUnsafeSlow(0);
  let used = 0;
  const strings: string[] = [];
  let keptBytes = 0;
  let records = 0;
  const keepText = (compact: string): number => {
    const need = Buffer.byteLength(compact);
    if (used + need > slab.length) {
      slab = Buffer.allocUnsafeSlow(Math.max(SLAB, need));
      slabs.push(slab);
      used = 0;
    }
    slab.write(compact, used, 'utf8');
    offsets.push(used);
    sizes.push(need);
    slabOf.push(slabs.length - 1);
    used += need;
    keptBytes += need;
    return sizes.n - 1;
  };
  gc();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let rest = '';
  let k = 0;
  let items = 0;
  let streamAt = 0;
  // the last chunk written is the List's tail, not an item
  for (const chunk of readChunks(full.json)) {
    rest += chunk;
    let p = 0;
    while (k < lengths.length - 1 && rest.length - p >= lengths[k]) {
      const skip = k === 0 ? full.headChars : 2;
      const text = rest.slice(p + skip, p + lengths[k]);
      const value = JSON.parse(text) as Record<string, unknown>;
      const kind = value.kind as string;
      if (isEngineKind(kind)) {
        const rec = (mode === 'novalid' ? CONVERT[kind](value) : toRecord(kind, value)) as
          { raw: unknown; meta: { name: string; namespace?: string } } | undefined;
        if (rec) {
          let raw: unknown;
          switch (mode) {
            case 'tree':
              raw = value;
              break;
            case 'none':
            case 'novalid':
              raw = undefined;
              break;
            case 'offset':
              // characters, not bytes: the generated export is ASCII (checked by the caller)
              offsets.push(streamAt + p + skip);
              sizes.push(text.length);
              raw = sizes.n - 1;
              break;
            case 'bytes':
              raw = keepText(text.replace(INDENT, ''));
              break;
            case 'bytesjs':
              raw = keepText(JSON.stringify(value));
              break;
            case 'string': {
              const s = JSON.stringify(value);
              keptBytes += s.length;
              strings.push(s);
              raw = strings.length - 1;
              break;
            }
          }
          rec.raw = raw;
          const ns = rec.meta.namespace;
          const name = ns ? [ns, rec.meta.name].join('/') : rec.meta.name;
          let m = maps.get(kind);
          if (!m) maps.set(kind, (m = new Map()));
          m.set(name, rec);
          records++;
        }
      }
      p += lengths[k];
      k++;
      items++;
    }
    streamAt += p;
    rest = rest.slice(p);
  }
  const protoMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // offsets are counted in characters: they are the file's bytes only when every character is one byte
  if (mode === 'offset' && statSync(full.json).size !== streamAt + rest.length) throw new Error(`raw=offset needs a file of one-byte characters: ${full.json}`);
  const d0 = process.cpuUsage(c0);
  const protoCpuMs = (d0.user + d0.system) / 1000;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  if (mode === 'tree') keptBytes = Number.NaN;
  gc();
  const heapUsed = process.memoryUsage().heapUsed;

  // what reading every raw back would cost (export, state): untimed in the ratio
  const c1 = process.cpuUsage();
  const t1 = process.hrtime.bigint();
  let back = 0;
  const got = (o: unknown): void => {
    back++;
    readBack?.(o);
  };
  if (mode === 'offset') {
    const fd = openSync(full.json, 'r');
    const buf = Buffer.allocUnsafe(1 << 24);
    try {
      for (let i = 0; i < sizes.n; i++) {
        const n = readSync(fd, buf, 0, sizes.a[i], offsets.a[i]);
        got(JSON.parse(buf.toString('utf8', 0, n)));
      }
    } finally {
      closeSync(fd);
    }
  } else if (mode === 'bytes' || mode === 'bytesjs') {
    for (let i = 0; i < sizes.n; i++) got(JSON.parse(slabs[slabOf.a[i]].toString('utf8', offsets.a[i], offsets.a[i] + sizes.a[i])));
  } else if (mode === 'string') {
    for (const s of strings) got(JSON.parse(s));
  }
  const readBackMs = Number(process.hrtime.bigint() - t1) / 1e6;
  const d1 = process.cpuUsage(c1);
  // keep what was kept alive until here
  if (maps.size + slabs.length + strings.length < 0) throw new Error('unreachable');
  return { protoMs, protoCpuMs, items, records, peakRss, keptBytes, readBack: back, readBackMs, readBackCpuMs: (d1.user + d1.system) / 1000, heapUsed };
}
