import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import {
  yamlDocumentChunks,
  GenerateOptionsError,
  generateCluster,
  generateClusterStream,
  generateClusterText,
  listChunks,
  type GenerateOptions,
} from '../../../src/engine/generate/index';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { parseTimestamp } from '../../../src/engine/model/time';
import { goYamlFoldLine } from '../../helpers/goYamlFold';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated objects of every kind, read field by field
type Obj = Record<string, any>;
const NOW = parseTimestamp('2026-01-01T00:00:00Z')!;
const S = 1_000_000;

const small: GenerateOptions = { nodes: 12, podsPerNode: 8, zones: 3, seed: 7 };
const of = (objects: Obj[], kind: string) => objects.filter((o) => o.kind === kind);

test('the same options and seed give byte-identical text, in JSON and in YAML', () => {
  for (const format of ['json', 'yaml'] as const) {
    const a = generateClusterText({ ...small, format, timeline: { zoneOutage: { zone: 0, at: '60s' } } });
    const b = generateClusterText({ ...small, format, timeline: { zoneOutage: { zone: 0, at: '60s' } } });
    assert.equal(a.cluster, b.cluster);
    assert.equal(a.scenario, b.scenario);
  }
});

test('a different seed gives a different cluster of the same shape', () => {
  const a = generateCluster({ ...small, seed: 1 });
  const b = generateCluster({ ...small, seed: 2 });
  const c = generateCluster({ ...small, seed: '1' });
  assert.notEqual(JSON.stringify(a.list), JSON.stringify(b.list));
  assert.notEqual(JSON.stringify(a.list), JSON.stringify(c.list), 'the string seed "1" is not the number 1');
  assert.equal(a.counts.pods, b.counts.pods);
  assert.equal(a.counts.nodes, b.counts.nodes);
});

test('the streamed chunks are exactly the whole-list text', () => {
  const { list } = generateCluster(small);
  const join = (format: 'json' | 'yaml', indent?: number) => [...listChunks((list.items as Obj[]).values(), format, indent)].join('');
  assert.equal(join('json'), `${JSON.stringify(list, null, 4)}\n`, 'kubectl prints JSON with a 4-space indent');
  assert.equal(join('json', 0), `${JSON.stringify(list)}\n`);
  assert.equal(join('json', 2), `${JSON.stringify(list, null, 2)}\n`);
  assert.deepEqual(parseYaml(join('yaml')), list);
  for (const format of ['json', 'yaml'] as const) {
    const empty = [...listChunks([], format)].join('');
    assert.deepEqual(format === 'json' ? JSON.parse(empty) : parseYaml(empty), {
      apiVersion: 'v1',
      items: [],
      kind: 'List',
      metadata: { resourceVersion: '' },
    });
  }
});

test('the text of generateClusterText is the list generateCluster returns', () => {
  const text = generateClusterText(small).cluster;
  assert.deepEqual(JSON.parse(text), generateCluster(small).list);
});

test('counts: nodes, nodes x podsPerNode pods, a Lease per node, a pod per node per DaemonSet', () => {
  const cases: { name: string; options: GenerateOptions; daemonSets: number }[] = [
    { name: 'three zones with control-plane nodes', options: { nodes: 30, podsPerNode: 10, zones: 3 }, daemonSets: 2 },
    { name: 'one node, one pod', options: { nodes: 1, podsPerNode: 1, zones: 1 }, daemonSets: 1 },
    { name: 'no zones, three DaemonSets', options: { nodes: 7, podsPerNode: 5, zones: 0, daemonSets: 3 }, daemonSets: 3 },
    { name: 'no control-plane nodes', options: { nodes: 9, podsPerNode: 4, controlPlaneNodes: 0 }, daemonSets: 2 },
  ];
  for (const c of cases) {
    const g = generateCluster(c.options);
    const objects = g.objects as Obj[];
    const n = c.options.nodes!;
    assert.equal(of(objects, 'Node').length, n, c.name);
    assert.equal(of(objects, 'Pod').length, n * c.options.podsPerNode!, c.name);
    assert.equal(of(objects, 'Lease').length, n, c.name);
    assert.equal(of(objects, 'DaemonSet').length, c.daemonSets, c.name);
    for (const ds of of(objects, 'DaemonSet')) {
      const nodesOfDs = of(objects, 'Pod')
        .filter((p) => p.metadata.ownerReferences[0].uid === ds.metadata.uid)
        .map((p) => p.spec.nodeName);
      assert.equal(new Set(nodesOfDs).size, n, `${c.name}: ${ds.metadata.name} has one pod on every node`);
      assert.equal(nodesOfDs.length, n);
    }
    assert.deepEqual(g.counts, {
      nodes: n,
      pods: n * c.options.podsPerNode!,
      replicaSets: of(objects, 'ReplicaSet').length,
      daemonSets: c.daemonSets,
      leases: n,
      zones: g.counts.zones,
    });
  }
});

test('every reference resolves: pods to nodes, pods to owners, Leases to nodes, ReplicaSet replicas to their pods', () => {
  const objects = generateCluster({ nodes: 40, podsPerNode: 12, seed: 3 }).objects as Obj[];
  const nodes = new Map(of(objects, 'Node').map((n) => [n.metadata.name, n]));
  const owners = new Map([...of(objects, 'ReplicaSet'), ...of(objects, 'DaemonSet')].map((o) => [o.metadata.uid, o]));
  const podsByOwner = new Map<string, number>();
  for (const pod of of(objects, 'Pod')) {
    assert.ok(nodes.has(pod.spec.nodeName), `${pod.metadata.name} runs on an existing node`);
    const [ref] = pod.metadata.ownerReferences;
    const owner = owners.get(ref.uid);
    assert.ok(owner, `${pod.metadata.name}'s owner exists`);
    assert.equal(owner.kind, ref.kind);
    assert.equal(owner.metadata.name, ref.name);
    assert.equal(owner.metadata.namespace, pod.metadata.namespace);
    assert.equal(ref.controller, true);
    for (const [k, v] of Object.entries(owner.spec.selector.matchLabels)) assert.equal(pod.metadata.labels[k], v, 'the owner selects its pods');
    assert.ok(pod.metadata.name.startsWith(pod.metadata.generateName));
    podsByOwner.set(ref.uid, (podsByOwner.get(ref.uid) ?? 0) + 1);
  }
  for (const rs of of(objects, 'ReplicaSet')) {
    const pods = podsByOwner.get(rs.metadata.uid) ?? 0;
    assert.equal(rs.spec.replicas, pods, `${rs.metadata.name}: spec.replicas is its pod count`);
    assert.equal(rs.status.replicas, pods);
    assert.equal(rs.metadata.ownerReferences[0].kind, 'Deployment');
    if (pods) assert.equal(rs.status.readyReplicas, pods);
  }
  for (const lease of of(objects, 'Lease')) {
    assert.equal(lease.metadata.namespace, 'kube-node-lease');
    assert.equal(lease.metadata.ownerReferences[0].uid, nodes.get(lease.metadata.name)?.metadata.uid, 'the Lease is owned by its node');
    assert.equal(lease.spec.holderIdentity, lease.metadata.name);
  }
});

test('names and uids are unique, and objects are listed as kubectl lists them', () => {
  const objects = generateCluster({ nodes: 50, podsPerNode: 20, seed: 11 }).objects as Obj[];
  const uids = objects.map((o) => o.metadata.uid);
  assert.equal(new Set(uids).size, uids.length, 'uids are unique');
  const keys = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
  assert.equal(new Set(keys).size, keys.length, 'names are unique per kind and namespace');
  const kindOrder = ['Node', 'Pod', 'ReplicaSet', 'DaemonSet', 'Lease'];
  for (let i = 1; i < objects.length; i++) {
    const a = objects[i - 1],
      b = objects[i];
    const ka = kindOrder.indexOf(a.kind),
      kb = kindOrder.indexOf(b.kind);
    assert.ok(ka <= kb, 'kinds in the order of `kubectl get nodes,pods,replicasets,daemonsets,leases`');
    if (ka === kb) {
      const na = `${a.metadata.namespace ?? ''}/${a.metadata.name}`,
        nb = `${b.metadata.namespace ?? ''}/${b.metadata.name}`;
      assert.ok(na < nb, `${na} before ${nb}`);
    }
  }
});

test('every object has its keys in sorted order, as kubectl prints them', () => {
  const unsorted: string[] = [];
  const check = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => check(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.join('\u0000') !== [...keys].sort().join('\u0000')) unsorted.push(path);
      for (const k of keys) check((v as Obj)[k], `${path}.${k}`);
    }
  };
  const objects = generateCluster({ nodes: 10, podsPerNode: 10, managedFields: 1 }).objects as Obj[];
  objects.forEach((o, i) => check(o, `items[${i}]`));
  assert.deepEqual(unsorted, []);
});

test('nodes and pods are spread evenly over the zones, with both zone label families', () => {
  const objects = generateCluster({ nodes: 301, podsPerNode: 10, zones: 3, seed: 5 }).objects as Obj[];
  const zoneOf = new Map<string, string>();
  const perZone: Record<string, number> = {};
  for (const n of of(objects, 'Node')) {
    const l = n.metadata.labels;
    assert.equal(l['topology.kubernetes.io/zone'], l['failure-domain.beta.kubernetes.io/zone']);
    assert.equal(l['topology.kubernetes.io/region'], 'us-east-1');
    assert.equal(l['failure-domain.beta.kubernetes.io/region'], 'us-east-1');
    zoneOf.set(n.metadata.name, l['topology.kubernetes.io/zone']);
    perZone[l['topology.kubernetes.io/zone']] = (perZone[l['topology.kubernetes.io/zone']] ?? 0) + 1;
  }
  assert.deepEqual(perZone, { 'us-east-1a': 101, 'us-east-1b': 100, 'us-east-1c': 100 });
  const podsPerZone: Record<string, number> = {};
  for (const p of of(objects, 'Pod')) podsPerZone[zoneOf.get(p.spec.nodeName)!] = (podsPerZone[zoneOf.get(p.spec.nodeName)!] ?? 0) + 1;
  assert.deepEqual(podsPerZone, { 'us-east-1a': 1010, 'us-east-1b': 1000, 'us-east-1c': 1000 });
  // A ReplicaSet's replicas are dealt over the zones in turn (one zone may get one extra where
  // the round of nodes wraps around).
  const rsZones = new Map<string, Record<string, number>>();
  for (const p of of(objects, 'Pod')) {
    const [ref] = p.metadata.ownerReferences;
    if (ref.kind !== 'ReplicaSet') continue;
    const z = (rsZones.get(ref.uid) ?? rsZones.set(ref.uid, {}).get(ref.uid))!;
    z[zoneOf.get(p.spec.nodeName)!] = (z[zoneOf.get(p.spec.nodeName)!] ?? 0) + 1;
  }
  let checked = 0;
  for (const zones of rsZones.values()) {
    const counts = Object.values(zones);
    const replicas = counts.reduce((a, b) => a + b, 0);
    if (replicas < 3) continue;
    checked++;
    assert.ok(Math.max(...counts) <= Math.ceil(replicas / 3) + 1, `replicas per zone ${JSON.stringify(zones)}`);
  }
  assert.ok(checked > 10);
  const bare = generateCluster({ nodes: 4, podsPerNode: 2, zones: 0 }).objects as Obj[];
  for (const n of of(bare, 'Node')) {
    assert.equal(Object.keys(n.metadata.labels).filter((k) => /zone|region/.test(k)).length, 0, 'zones: 0 gives unlabelled nodes');
  }
});

test('control-plane nodes are tainted NoSchedule and only pods that tolerate it run there', () => {
  const cases = [
    { version: '1.31', taints: ['node-role.kubernetes.io/control-plane'] },
    { version: '1.24', taints: ['node-role.kubernetes.io/master', 'node-role.kubernetes.io/control-plane'] },
    { version: '1.12', taints: ['node-role.kubernetes.io/master'] },
  ];
  for (const c of cases) {
    const objects = generateCluster({ nodes: 9, podsPerNode: 6, kubernetesVersion: c.version }).objects as Obj[];
    const tainted = of(objects, 'Node').filter((n) => n.spec.taints);
    assert.equal(tainted.length, 3, c.version);
    for (const n of tainted)
      assert.deepEqual(
        n.spec.taints,
        c.taints.map((key) => ({ effect: 'NoSchedule', key })),
        c.version,
      );
    const taintsOf = new Map(tainted.map((n) => [n.metadata.name, n.spec.taints as Obj[]]));
    for (const p of of(objects, 'Pod')) {
      for (const taint of taintsOf.get(p.spec.nodeName) ?? []) {
        const ok = (p.spec.tolerations ?? []).some(
          (t: Obj) => (t.operator === 'Exists' && t.key === undefined) || (t.key === taint.key && (t.effect ?? taint.effect) === taint.effect),
        );
        assert.ok(ok, `${c.version}: ${p.metadata.name} tolerates ${taint.key}`);
      }
    }
  }
});

test('pod tolerations: mostly the 300 s defaults, and some 0 s, 60 s, infinite and none', () => {
  const objects = generateCluster({ nodes: 90, podsPerNode: 30, seed: 2 }).objects as Obj[];
  const styles: Record<string, number> = {};
  for (const p of of(objects, 'Pod')) {
    if (p.metadata.ownerReferences[0].kind !== 'ReplicaSet') continue;
    const unreachable = (p.spec.tolerations ?? []).find((t: Obj) => t.key === 'node.kubernetes.io/unreachable');
    const style = !unreachable ? 'none' : unreachable.tolerationSeconds === undefined ? 'infinite' : String(unreachable.tolerationSeconds);
    styles[style] = (styles[style] ?? 0) + 1;
    const notReady = (p.spec.tolerations ?? []).find((t: Obj) => t.key === 'node.kubernetes.io/not-ready');
    if (unreachable) assert.ok(notReady, 'the admission plugin adds the not-ready toleration when the template has only unreachable');
  }
  assert.deepEqual(Object.keys(styles).sort(), ['0', '300', '60', 'infinite', 'none']);
  const total = Object.values(styles).reduce((a, b) => a + b, 0);
  assert.ok(styles['300'] / total > 0.5, `most pods have the defaults (${JSON.stringify(styles)})`);
  for (const p of of(objects, 'Pod').filter((x) => x.metadata.ownerReferences[0].kind === 'DaemonSet')) {
    const u = p.spec.tolerations.find((t: Obj) => t.key === 'node.kubernetes.io/unreachable');
    assert.equal(u.tolerationSeconds, undefined, 'DaemonSet pods tolerate unreachable forever');
  }
});

test('the kubelets look alive at the export time: fresh Leases, heartbeats within the report frequency', () => {
  const cases = [
    { version: '1.31', heartbeatWithin: 300 * S, leases: 20 },
    { version: '1.37', heartbeatWithin: 300 * S, leases: 20 },
    { version: '1.12', heartbeatWithin: 10 * S, leases: 0 },
  ];
  for (const c of cases) {
    const objects = generateCluster({ nodes: 20, podsPerNode: 3, kubernetesVersion: c.version }).objects as Obj[];
    for (const n of of(objects, 'Node')) {
      const types = n.status.conditions.map((x: Obj) => x.type);
      assert.deepEqual(types, ['NetworkUnavailable', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
      const ready = n.status.conditions.find((x: Obj) => x.type === 'Ready');
      assert.equal(ready.status, 'True');
      const hb = parseTimestamp(ready.lastHeartbeatTime)!;
      assert.ok(hb <= NOW && NOW - hb < c.heartbeatWithin, `${c.version}: ${ready.lastHeartbeatTime}`);
      assert.ok(parseTimestamp(ready.lastTransitionTime)! <= hb);
      assert.equal(n.status.nodeInfo.kubeletVersion.startsWith(`v${c.version}.`), true);
    }
    const leases = of(objects, 'Lease');
    assert.equal(leases.length, c.leases, c.version);
    for (const l of leases) {
      const renew = parseTimestamp(l.spec.renewTime)!;
      assert.ok(renew <= NOW && NOW - renew < 10 * S, l.spec.renewTime);
      assert.match(l.spec.renewTime, /\.\d{6}Z$/, 'renewTime is a MicroTime');
    }
  }
});

test('no timestamp is later than the export time', () => {
  const text = generateClusterText({ nodes: 20, podsPerNode: 10, now: '2025-06-01T12:00:00Z' }).cluster;
  const now = parseTimestamp('2025-06-01T12:00:00Z')!;
  const times = [...text.matchAll(/"(\d{4}-\d\d-\d\dT[\d:.]+Z)"/g)].map((m) => parseTimestamp(m[1])!);
  assert.ok(times.length > 100);
  assert.ok(times.every((t) => t <= now));
});

test('pods carry conditions, container statuses with restart counts, and some managedFields', () => {
  const objects = generateCluster({ nodes: 30, podsPerNode: 20, managedFields: 0.1 }).objects as Obj[];
  const pods = of(objects, 'Pod');
  assert.ok(pods.every((p) => p.status.phase === 'Running' && p.status.conditions.some((c: Obj) => c.type === 'Ready' && c.status === 'True')));
  const restarts = pods.flatMap((p) => p.status.containerStatuses.map((c: Obj) => c.restartCount));
  assert.ok(restarts.some((r) => r === 0) && restarts.some((r) => r > 0));
  for (const p of pods)
    for (const c of p.status.containerStatuses) if (c.restartCount > 0) assert.ok(c.lastState.terminated, 'a restarted container shows how it last ended');
  const withManaged = pods.filter((p) => p.metadata.managedFields).length;
  assert.ok(withManaged > 0 && withManaged < pods.length / 4, `${withManaged} of ${pods.length} pods have managedFields`);
  const lean = generateCluster({ nodes: 30, podsPerNode: 20, detail: 'lean' }).objects as Obj[];
  assert.equal(lean.filter((o) => o.metadata.managedFields).length, 0, 'detail: lean has no managedFields');
  assert.ok(JSON.stringify(lean).length < JSON.stringify(objects).length * 0.9);
});

test("a zone outage timeline gives a scenario that stops and restarts that zone's kubelets", () => {
  const g = generateCluster({
    nodes: 6,
    podsPerNode: 2,
    kubernetesVersion: '1.12',
    timeline: { zoneOutage: { zone: 'us-east-1b', at: '60s', recoverAt: '30m' } },
    snapshotPath: './big.json',
  });
  assert.deepEqual(g.scenario, {
    apiVersion: 'controllerstepper.io/v1alpha1',
    kind: 'Scenario',
    metadata: { name: 'us-east-1b-outage' },
    kubernetesVersion: '1.12',
    startTime: '2026-01-01T00:00:00Z',
    snapshot: './big.json',
    events: [
      { at: '60s', kubelet: 'stop', zone: 'us-east-1b' },
      { at: '30m', kubelet: 'start', zone: 'us-east-1b' },
    ],
  });
  const byIndex = generateCluster({ nodes: 6, podsPerNode: 2, timeline: { zoneOutage: { zone: 2, at: '1m', only: 'lease' } } });
  assert.deepEqual((byIndex.scenario as Obj).events, [{ at: '1m', kubelet: 'stop', zone: 'us-east-1c', only: 'lease' }]);
  assert.equal(generateCluster({ nodes: 3, podsPerNode: 1 }).scenario, undefined, 'no timeline, no scenario');
});

test('bad options are refused with a message naming the option', () => {
  const cases: { options: GenerateOptions; message: RegExp }[] = [
    { options: { nodes: 0 }, message: /nodes must be a whole number from 1/ },
    { options: { nodes: 2.5 }, message: /nodes must be a whole number/ },
    { options: { podsPerNode: 251 }, message: /podsPerNode must be a whole number from 1 to 250/ },
    { options: { zones: 27 }, message: /zones must be/ },
    { options: { kubernetesVersion: '1.11' }, message: /kubernetesVersion must be "1.12" to "1.37"/ },
    { options: { kubernetesVersion: '1.38' }, message: /kubernetesVersion must be "1.12" to "1.37", not "1.38"/ },
    { options: { now: 'yesterday' }, message: /now must be an RFC3339 time/ },
    { options: { format: 'xml' as 'json' }, message: /format must be json or yaml/ },
    { options: { detail: 'some' as 'lean' }, message: /detail must be full or lean/ },
    { options: { managedFields: 2 }, message: /managedFields must be a fraction/ },
    { options: { timeline: { zoneOutage: { zone: 'mars-1a', at: '60s' } } }, message: /zone must be one of us-east-1a, us-east-1b, us-east-1c/ },
    { options: { timeline: { zoneOutage: { zone: 0, at: 'soon' } } }, message: /at must be an offset/ },
    { options: { timeline: { zoneOutage: { zone: 0, at: '5m', recoverAt: '1m' } } }, message: /recoverAt must be later than at/ },
    { options: { zones: 0, timeline: { zoneOutage: { zone: 0, at: '5m' } } }, message: /needs zones/ },
  ];
  for (const c of cases) {
    assert.throws(
      () => generateCluster(c.options),
      (e: unknown) => e instanceof GenerateOptionsError && c.message.test(e.message),
      JSON.stringify(c.options),
    );
  }
});

test('the streamed items can be read only once (they are built as they are read)', () => {
  const s = generateClusterStream({ nodes: 2, podsPerNode: 1 });
  assert.equal([...s.items].length, s.counts.nodes + s.counts.pods + s.counts.replicaSets + s.counts.daemonSets + s.counts.leases);
  assert.throws(() => [...s.items], /only once/);
});

test('the loader accepts generated clusters with no errors or warnings', () => {
  const cases: { name: string; options: GenerateOptions }[] = [
    { name: 'JSON, 1.31, with managedFields', options: { nodes: 30, podsPerNode: 10, managedFields: 0.3 } },
    { name: 'YAML, 1.12, no Leases', options: { nodes: 12, podsPerNode: 5, format: 'yaml', kubernetesVersion: '1.12' } },
    { name: 'compact JSON, lean, no zones', options: { nodes: 12, podsPerNode: 5, zones: 0, indent: 0, detail: 'lean' } },
  ];
  for (const c of cases) {
    const g = generateClusterText(c.options);
    const file = `cluster.${c.options.format ?? 'json'}`;
    const loaded = loadSnapshot({ file, text: g.cluster });
    const serious = loaded.problems.filter((p) => p.severity !== 'info');
    assert.deepEqual(serious, [], c.name);
    assert.equal(loaded.partial, false, c.name);
    assert.equal(loaded.cluster.nodes.size, g.counts.nodes, c.name);
    assert.equal(loaded.cluster.pods.size, g.counts.pods, c.name);
    assert.equal(loaded.cluster.replicaSets.size, g.counts.replicaSets, c.name);
    assert.equal(loaded.cluster.daemonSets.size, g.counts.daemonSets, c.name);
    assert.equal(loaded.cluster.leases.size, g.counts.leases, c.name);
    assert.equal(loaded.cluster.ignored.length, 0, c.name);
    const onNodes = [...loaded.cluster.podsByNode.values()].reduce((a, s) => a + s.size, 0);
    assert.equal(onNodes, g.counts.pods, `${c.name}: every pod is indexed by its node`);
  }
});

test('the objects as a multi-document YAML stream load as the same objects, one document each', () => {
  const objects = generateCluster({ nodes: 3, podsPerNode: 2, seed: 4 }).objects;
  const text = [...yamlDocumentChunks(objects)].join('');
  assert.equal(text.split(/^---$/m).length - 1, objects.length);
  assert.deepEqual(
    loadSnapshot({ file: 'c.yaml', text }).objects.map((o) => o.object),
    objects,
  );
});

test("the YAML is kubectl's as written: no line that go-yaml's emitter would fold at 80 columns", () => {
  // The yaml package writes with lineWidth 0 (never folds); go-yaml folds a string at a space past
  // column 80. The generator's long values (image digests, container IDs) have no space to fold at:
  // if one ever has, this fails, and the writer must fold it as goYamlFoldLine does.
  for (const c of [
    { detail: 'full' as const, kubernetesVersion: '1.35' },
    { detail: 'full' as const, kubernetesVersion: '1.12' },
    { detail: 'lean' as const, kubernetesVersion: '1.35' },
  ]) {
    const text = generateClusterText({ nodes: 6, podsPerNode: 4, zones: 3, seed: 2, format: 'yaml', ...c }).cluster;
    const lines = text.split('\n');
    if (c.detail === 'full')
      assert.ok(
        lines.some((l) => l.length > 80),
        `${c.detail} ${c.kubernetesVersion}: has lines past column 80`,
      );
    for (const [i, line] of lines.entries()) assert.equal(goYamlFoldLine(line), line, `${c.detail} ${c.kubernetesVersion}: line ${i + 1}`);
  }
  // the check can fail: a spaced string past column 80 is folded
  const long = `    message: ${'kubelet stopped posting node status '.repeat(4).trim()}`;
  assert.notEqual(goYamlFoldLine(long), long);
});
