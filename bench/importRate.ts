/**
 * The audit-log import rate: MB/s of `importEvidence` over a synthetic audit
 * log of a big cluster (every kubelet renewing its Lease every 10 s at
 * Metadata level, as a day of audit log mostly is, plus the node
 * controller's taint writes at RequestResponse level for a zone outage),
 * beside the rate of a bare `JSON.parse` of the same lines one by one. The log is
 * handed over in 1 MiB chunks, as the command line reads a file: never one string.
 * The same log gzipped (gzip -6, as logrotate compresses) is read through the
 * engine's streaming gunzip (snapshot/gzip.ts); the rate is of the decompressed bytes.
 * Then an events export (`kubectl get events -A -o yaml`, one List document, as
 * kubectl prints it) of `--events-mib` MiB, which streams item by item
 * (snapshot/yamlListStream.ts), beside the same events as `-o json`.
 *
 *   node --expose-gc --import tsx bench/importRate.ts [--nodes 5000] [--minutes 10] [--runs 3] [--events-mib 64]
 */
import { gzipSync } from 'node:zlib';
import { importEvidence } from '../src/engine/import/index';
import { gunzipText } from '../src/platform/gunzip';
import { formatTime, parseTimestamp } from '../src/engine/model/time';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const nodes = arg('nodes', 5000);
const minutes = arg('minutes', 10);
const runs = arg('runs', 3);
const eventsMib = arg('events-mib', 64);
const t0 = parseTimestamp('2026-01-01T00:00:00Z')!;

/** The log, in chunks of about 1 MiB, generated on the fly. */
function* chunks(): Generator<string> {
  let buf = '';
  let id = 0;
  const outage = new Set<number>(Array.from({ length: Math.floor(nodes / 3) }, (_, i) => i * 3));
  for (let s = 0; s < minutes * 60; s += 10) {
    for (let n = 0; n < nodes; n++) {
      const t = formatTime(t0 + s * 1_000_000 + n * 1000).replace('Z', '000Z');
      const name = `node-${n}`;
      if (outage.has(n) && s >= 60) {
        if (s === 110) {
          buf +=
            JSON.stringify({
              kind: 'Event',
              apiVersion: 'audit.k8s.io/v1',
              level: 'RequestResponse',
              auditID: `a${id++}`,
              stage: 'ResponseComplete',
              requestURI: `/api/v1/nodes/${name}`,
              verb: 'patch',
              user: { username: 'system:serviceaccount:kube-system:node-controller' },
              userAgent: 'kube-controller-manager/v1.31.0',
              objectRef: { resource: 'nodes', name, apiVersion: 'v1' },
              responseStatus: { metadata: {}, code: 200 },
              requestObject: { spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: t }] } },
              requestReceivedTimestamp: t,
              stageTimestamp: t,
            }) + '\n';
        }
        continue;
      }
      buf += `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a${id++}","stage":"ResponseComplete","requestURI":"/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}?timeout=10s","verb":"update","user":{"username":"system:node:${name}","groups":["system:nodes","system:authenticated"]},"sourceIPs":["10.0.0.1"],"userAgent":"kubelet/v1.31.0 (linux/amd64) kubernetes/abc","objectRef":{"resource":"leases","namespace":"kube-node-lease","name":"${name}","apiGroup":"coordination.k8s.io","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"${t}","stageTimestamp":"${t}","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}\n`;
      if (buf.length >= 1 << 20) {
        yield buf;
        buf = '';
      }
    }
  }
  if (buf) yield buf;
}

function sizeOf(g: Iterable<string>): number {
  let b = 0;
  for (const c of g) b += c.length;
  return b;
}

function measure(label: string, fn: () => number): { seconds: number; bytes: number } {
  const times: number[] = [];
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    (globalThis as { gc?: () => void }).gc?.();
    const start = process.hrtime.bigint();
    bytes = fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  const seconds = times[Math.floor(times.length / 2)];
  console.log(
    `${label.padEnd(34)} ${(bytes / 2 ** 20 / seconds).toFixed(1).padStart(7)} MB/s  (median of ${runs}: ${seconds.toFixed(2)} s for ${(bytes / 2 ** 20).toFixed(0)} MiB)`,
  );
  return { seconds, bytes };
}

// The log is generated once and held (about 190 MiB at 5,000 nodes and 10 minutes), so every row
// times only its reading, the gzipped one included: generating it costs about what parsing it does.
const log = [...chunks()];
const generated = sizeOf(log);
const parse = measure('JSON.parse, line by line', () => {
  for (const c of log) for (const line of c.split('\n')) if (line) JSON.parse(line);
  return generated;
});
let decisions = 0;
const imp = measure('importEvidence (audit log)', () => {
  const r = importEvidence([{ name: 'audit.log', chunks: log }]);
  decisions = r.decisions.length;
  return generated;
});
const gz = gzipSync(Buffer.concat(log.map((c) => Buffer.from(c))));
function* gzChunks(): Generator<Uint8Array> {
  for (let i = 0; i < gz.length; i += 1 << 20) yield gz.subarray(i, i + (1 << 20));
}
measure('importEvidence (the log gzipped)', () => {
  importEvidence([{ name: 'audit.log.gz', chunks: gunzipText(gzChunks()) }]);
  return generated;
});
console.log(`\n${nodes} nodes, ${minutes} min of Lease renewals; ${decisions} real decisions found.`);
console.log(`import ÷ JSON.parse: ${(imp.seconds / parse.seconds).toFixed(2)}×; peak RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);

/** One eviction event of a zone outage, as `kubectl get events -o yaml` prints an item. */
function yamlEvent(i: number): string {
  const t = formatTime(t0 + 60_000_000 + i * 1000);
  const pod = `web-${Math.floor(i / 30)}-7nlx2wwwpc-${i.toString(36)}`;
  return `- apiVersion: v1
  count: 1
  eventTime: null
  firstTimestamp: "${t}"
  involvedObject:
    apiVersion: v1
    kind: Pod
    name: ${pod}
    namespace: default
    resourceVersion: "${1000 + i}"
    uid: 5f0c${(i % 65536).toString(16).padStart(4, '0')}-1b2c-4d5e-8f90-a1b2c3d4e5f6
  kind: Event
  lastTimestamp: "${t}"
  message: Marking for deletion Pod default/${pod}
  metadata:
    creationTimestamp: "${t}"
    name: ${pod}.17f3a${i.toString(16)}
    namespace: default
    resourceVersion: "${2000 + i}"
    uid: 9a8b${(i % 65536).toString(16).padStart(4, '0')}-1b2c-4d5e-8f90-a1b2c3d4e5f6
  reason: TaintManagerEviction
  reportingComponent: taint-eviction-controller
  reportingInstance: ""
  source:
    component: taint-eviction-controller
  type: Normal
`;
}

const eventCount = Math.ceil((eventsMib * 2 ** 20) / yamlEvent(0).length);
function* yamlEvents(): Generator<string> {
  let buf = 'apiVersion: v1\nitems:\n';
  for (let i = 0; i < eventCount; i++) {
    buf += yamlEvent(i);
    if (buf.length >= 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}
function* jsonEvents(): Generator<string> {
  let buf = '{\n    "apiVersion": "v1",\n    "items": [\n';
  for (let i = 0; i < eventCount; i++) {
    const t = formatTime(t0 + 60_000_000 + i * 1000);
    const pod = `web-${Math.floor(i / 30)}-7nlx2wwwpc-${i.toString(36)}`;
    const e = {
      apiVersion: 'v1',
      count: 1,
      eventTime: null,
      firstTimestamp: t,
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace: 'default' },
      kind: 'Event',
      lastTimestamp: t,
      message: `Marking for deletion Pod default/${pod}`,
      metadata: { creationTimestamp: t, name: `${pod}.17f3a${i.toString(16)}`, namespace: 'default' },
      reason: 'TaintManagerEviction',
      reportingComponent: 'taint-eviction-controller',
      source: { component: 'taint-eviction-controller' },
      type: 'Normal',
    };
    buf += `${i ? ',\n' : ''}${JSON.stringify(e, null, 4).replace(/^/gm, '        ')}`;
    if (buf.length >= 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}\n    ],\n    "kind": "List"\n}\n`;
}
const yamlText = [...yamlEvents()],
  jsonText = [...jsonEvents()];
const yamlBytes = sizeOf(yamlText),
  jsonBytes = sizeOf(jsonText);
let evicted = 0;
measure(`events -o yaml (${eventCount} events)`, () => {
  const r = importEvidence([{ name: 'events.yaml', chunks: yamlText }]);
  evicted = r.decisions.length;
  return yamlBytes;
});
measure('events -o json (the same events)', () => {
  importEvidence([{ name: 'events.json', chunks: jsonText }]);
  return jsonBytes;
});
console.log(
  `events export: ${eventCount} events (${evicted} decisions found), YAML ${(yamlBytes / 2 ** 20).toFixed(0)} MiB, JSON ${(jsonBytes / 2 ** 20).toFixed(0)} MiB (generated before, not timed)`,
);
