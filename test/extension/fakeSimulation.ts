/**
 * A scripted Simulation for the shells' tests (session, webview harness): one
 * node stops heartbeating, goes Unknown, is tainted unreachable, and its pod
 * without infinite toleration is evicted 300 s later and replaced. The names
 * are parameters so the same script carries hostile strings. It honours the
 * Simulation interface (step, runUntil, runUntilDecision, goToPass, explain),
 * not the controllers' logic: the engine's own tests cover that.
 */
import { setup } from 'xstate';
import type { Explanation, MachineView, Simulation, SimulationOptions, StateView, ZoneView } from '../../src/engine/simulation/api';
import type { Action, ControllerName, Decision } from '../../src/engine/trace/decision';
import { formatDuration, formatTime, parseTimestamp, seconds, type Micros } from '../../src/engine/model/time';
import type { KObject } from '../../src/engine/model/types';
import { MachineLookup, machineIdsOf } from '../../src/engine/simulation/machineLookup';

export interface FakeNames {
  /** the node that stops */
  node: string;
  other: string;
  zoneA: string;
  zoneB: string;
  /** the pod evicted after 300 s */
  pod: string;
  /** the pod that tolerates forever */
  survivor: string;
  replicaSet: string;
  label: string;
  message: string;
}

export const PLAIN_NAMES: FakeNames = {
  node: 'node-a1',
  other: 'node-b1',
  zoneA: 'us-east-1a',
  zoneB: 'us-east-1b',
  pod: 'web-1',
  survivor: 'db-1',
  replicaSet: 'web',
  label: 'frontend',
  message: 'kubelet is posting ready status',
};

export const HOSTILE_NAMES: FakeNames = {
  node: '<img src=x onerror="window.__pwned=1">',
  other: '</script><script>window.__pwned=2</script>',
  zoneA: '<svg onload="window.__pwned=3">',
  zoneB: 'javascript:window.__pwned=4',
  pod: '<img src=x onerror=alert(1)>',
  survivor: 'javascript:alert(document.domain)',
  replicaSet: '"><iframe src="javascript:window.__pwned=5">',
  label: '<b onmouseover="window.__pwned=6">x</b>',
  message: '</script><img src=x onerror="window.__pwned=7">',
};

export const START = parseTimestamp('2026-01-01T00:00:00Z') as Micros;
const PERIOD = seconds(5);
const STOP_PASS = 2;
const UNKNOWN_PASS = 10;
const TAINT_PASS = 11;
const EVICT_PASS = TAINT_PASS + 60;
const MAX_PASS = 200;

export const nodeMachine = setup({
  guards: { graceElapsed: () => true, queueReleased: () => true },
}).createMachine({
  id: 'node',
  initial: 'ready',
  states: {
    ready: { on: { PROBE_EXPIRED: { target: 'unknown', guard: 'graceElapsed', description: 'no heartbeat for nodeMonitorGracePeriod' } } },
    unknown: {
      initial: 'observed',
      on: { HEARTBEAT: { target: '#node.ready', description: 'the kubelet posted Ready=True' } },
      states: {
        observed: { on: { QUEUE: { target: 'queued', description: 'markNodeForTainting' } } },
        queued: { on: { TAINT_PASS: { target: 'tainted', guard: 'queueReleased', description: 'the zone queue released the node' } } },
        tainted: {},
      },
    },
  },
});

type Def = Omit<Decision, 'seq' | 'time' | 'pass' | 'causes' | 'machine' | 'source'> & {
  causes?: string[];
  key: string;
  machine?: Decision['machine'];
};

export class FakeSimulation implements Simulation {
  readonly scenario: Simulation['scenario'];
  readonly behaviour = { version: { major: 1, minor: 31, text: '1.31' } } as Simulation['behaviour'];
  readonly config: Simulation['config'];
  readonly kubelet = { nodeStatusUpdateFrequency: seconds(10), nodeStatusReportFrequency: seconds(300), leaseRenewInterval: seconds(10), podStartupDelay: 0 };
  readonly problems: Simulation['problems'] = [
    { code: 'no-leases', severity: 'warning', message: 'a 1.14+ snapshot without Leases', position: { file: 'x.yaml', line: 3, column: 1 } },
  ];
  readonly startTime = START;
  /** every decision the script will ever make, by pass */
  private readonly all: Decision[];
  private current: number | null = null;
  stepCalls = 0;
  goToPassCalls: number[] = [];
  resetCalls = 0;
  readonly lastPass = MAX_PASS;

  /** nodes that never change, to make the cluster big (5,000 nodes) */
  private readonly extra: KObject[];

  constructor(
    readonly names: FakeNames = PLAIN_NAMES,
    readonly options: SimulationOptions = {},
    extraNodes = 0,
  ) {
    this.extra = Array.from({ length: extraNodes }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: `node-z${String(i).padStart(4, '0')}`, labels: { 'topology.kubernetes.io/zone': i % 2 ? names.zoneA : names.zoneB } },
      spec: {},
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    }));
    const grace = options.set?.nodeMonitorGracePeriod === '20s' ? seconds(20) : seconds(40);
    this.config = {
      nodeMonitorPeriod: PERIOD,
      nodeMonitorGracePeriod: grace,
      nodeStartupGracePeriod: seconds(60),
      podEvictionTimeout: seconds(300),
      nodeEvictionRate: 0.1,
      secondaryNodeEvictionRate: 0.01,
      largeClusterSizeThreshold: 50,
      unhealthyZoneThreshold: 0.55,
      enableTaintManager: true,
      featureGates: { NodeLease: true },
      controllers: new Set(['nodelifecycle', 'replicaset']),
      burstReplicas: 500,
      concurrentReplicaSetSyncs: 5,
      leaderElectLeaseDuration: seconds(15),
    };
    this.scenario = {
      name: 'one-node-stops',
      file: '/ws/one-node-stops.yaml',
      plainSnapshot: false,
      kubernetesVersion: '1.31',
      controllerMemory: 'reconstructed',
      binder: 'simplified',
      events: [{ kind: 'kubelet', action: 'stop', at: { offset: STOP_PASS * PERIOD }, index: 0, target: { nodes: [names.node] } }],
    } as Simulation['scenario'];
    this.all = this.script(grace === seconds(20) ? UNKNOWN_PASS - 4 : UNKNOWN_PASS);
  }

  private script(unknownPass: number): Decision[] {
    const n = this.names;
    const node = `Node/${n.node}`;
    const pod = `Pod/default/${n.pod}`;
    const out: Decision[] = [];
    const bySeqKey = new Map<string, number>();
    const add = (pass: number, d: Def, at = this.passTime(pass)) => {
      const seq = out.length + 1;
      bySeqKey.set(d.key, seq);
      const { key: _k, causes = [], machine = null, ...rest } = d;
      out.push({
        ...rest,
        seq,
        time: formatTime(at),
        pass,
        causes: causes.map((k) => bySeqKey.get(k) as number),
        machine,
        source: 'nodelifecycle: fake script',
      });
    };
    const world = (c: ControllerName) => c;
    for (let p = 0; p <= MAX_PASS; p++) {
      add(p, { key: `pass${p}`, controller: 'node-lifecycle', action: 'MonitorPass', object: 'Zone/', summary: `Monitor pass ${p}`, because: [] });
      if (p === 0)
        add(0, {
          key: 'assume',
          controller: world('world'),
          action: 'AssumptionMade',
          object: node,
          summary: `Controller memory for ${n.node} reconstructed from its Ready heartbeat`,
          because: [],
        });
      if (p === STOP_PASS)
        add(p, {
          key: 'stop',
          controller: 'world',
          action: 'KubeletStopped',
          object: node,
          summary: `The kubelet of ${n.node} stopped posting status`,
          because: [{ rule: 'scenario event', values: { index: 0 } }],
        });
      if (p === unknownPass)
        add(p, {
          key: 'unknown',
          controller: 'node-lifecycle',
          action: 'NodeStatusUnknown',
          object: node,
          summary: `Set Ready of ${n.node} to Unknown`,
          because: [
            {
              rule: 'no status update for longer than nodeMonitorGracePeriod',
              values: { grace: formatDuration(this.config.nodeMonitorGracePeriod), lastHeartbeat: formatTime(this.passTime(STOP_PASS)), message: n.message },
            },
          ],
          causes: ['stop'],
          machine: { id: `node/${n.node}`, from: 'ready', to: 'unknown.observed', event: 'PROBE_EXPIRED' },
        });
      if (p === TAINT_PASS) {
        add(p, {
          key: 'queued',
          controller: 'node-lifecycle',
          action: 'NodeQueuedForTainting',
          object: node,
          summary: `Queued ${n.node} for tainting in zone ${n.zoneA}`,
          because: [{ rule: 'Ready condition is Unknown', values: { Ready: 'Unknown' } }],
          causes: ['unknown'],
          machine: { id: `node/${n.node}`, from: 'unknown.observed', to: 'unknown.queued', event: 'QUEUE' },
        });
        add(p, {
          key: 'taint',
          controller: 'node-lifecycle',
          action: 'TaintAdded',
          object: node,
          summary: 'Added taint node.kubernetes.io/unreachable:NoExecute',
          because: [
            { rule: 'Ready condition is Unknown', values: { Ready: 'Unknown' } },
            { rule: 'zone eviction queue released the node', values: { zone: n.zoneA, rate: 0.1 } },
          ],
          causes: ['queued'],
          machine: { id: `node/${n.node}`, from: 'unknown.queued', to: 'unknown.tainted', event: 'TAINT_PASS' },
        });
        add(p, {
          key: 'sched',
          controller: 'taint-eviction',
          action: 'PodEvictionScheduled',
          object: pod,
          summary: `Eviction of ${n.pod} scheduled in 300s`,
          because: [{ rule: 'the pod tolerates the taint for tolerationSeconds', values: { tolerationSeconds: 300 } }],
          causes: ['taint'],
          details: { node: n.node, deadline: formatTime(this.passTime(p) + seconds(300)) },
        });
      }
      if (p === EVICT_PASS) {
        add(p, {
          key: 'evict',
          controller: 'taint-eviction',
          action: 'PodEvicted',
          object: pod,
          summary: `Deleted ${n.pod}`,
          because: [{ rule: 'tolerationSeconds elapsed', values: { tolerationSeconds: 300 } }],
          causes: ['sched'],
        });
        add(p, {
          key: 'created',
          controller: 'replicaset',
          action: 'PodsCreated',
          object: `ReplicaSet/default/${n.replicaSet}`,
          summary: 'Created 1 pod',
          because: [{ rule: 'fewer pods than desired', values: { desired: 2, current: 1 } }],
          causes: ['evict'],
          details: { pods: [`${n.pod}-r`] },
        });
      }
    }
    return out;
  }

  passTime(p: number): Micros {
    return START + p * PERIOD;
  }

  get pass(): number | null {
    return this.current;
  }

  get now(): Micros {
    return this.current === null ? START : this.passTime(this.current);
  }

  get trace(): readonly Decision[] {
    const c = this.current;
    return c === null ? [] : this.all.filter((d) => (d.pass as number) <= c);
  }

  step(): void {
    this.stepCalls++;
    const next = this.current === null ? 0 : this.current + 1;
    if (next <= MAX_PASS) this.current = next;
  }

  runUntil(t: Micros): void {
    while ((this.current === null ? 0 : this.current + 1) <= MAX_PASS && this.passTime(this.current === null ? 0 : this.current + 1) <= t) this.step();
  }

  runUntilDecision(match: (d: Decision) => boolean, limit: Micros): Decision | undefined {
    const seen = this.trace.length;
    for (;;) {
      const before = this.current;
      const nextTime = this.passTime(before === null ? 0 : before + 1);
      if (nextTime > limit) return undefined;
      this.step();
      if (this.current === before) return undefined;
      const found = this.trace.slice(seen).find(match);
      if (found) return found;
    }
  }

  goToPass(n: number): void {
    this.goToPassCalls.push(n);
    this.current = Math.min(n, MAX_PASS);
  }

  /** Back before the first pass: the script's state is its pass alone. */
  reset(): void {
    this.resetCalls++;
    this.current = null;
  }

  private has(key: Action, object: string) {
    return this.trace.some((d) => d.action === key && d.object === object);
  }

  state(): StateView {
    const n = this.names;
    const unknown = this.has('NodeStatusUnknown', `Node/${n.node}`);
    const tainted = this.has('TaintAdded', `Node/${n.node}`);
    const evicted = this.has('PodEvicted', `Pod/default/${n.pod}`);
    const taintAdded = this.trace.find((d) => d.action === 'TaintAdded')?.time;
    const nodeObj = (name: string, zone: string, ready: string, taints: KObject[]): KObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'topology.kubernetes.io/zone': zone, team: n.label } },
      spec: taints.length ? { taints } : {},
      status: { conditions: [{ type: 'Ready', status: ready, message: n.message }] },
    });
    const podObj = (name: string, node: string, tolerationSeconds?: number): KObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        labels: { app: n.label },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: n.replicaSet, uid: 'u1', controller: true }],
      },
      spec: {
        nodeName: node,
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', ...(tolerationSeconds === undefined ? {} : { tolerationSeconds }) },
        ],
      },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: unknown ? 'False' : 'True' }] },
    });
    const items: KObject[] = [
      nodeObj(
        n.node,
        n.zoneA,
        unknown ? 'Unknown' : 'True',
        tainted ? [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: taintAdded?.replace(/\.\d{3}Z$/, 'Z') }] : [],
      ),
      nodeObj(n.other, n.zoneB, 'True', []),
      podObj(n.survivor, n.node),
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: n.replicaSet, namespace: 'default' },
        spec: { replicas: 2 },
        status: { replicas: evicted ? 2 : 2, readyReplicas: evicted ? 1 : unknown ? 0 : 1 },
      },
    ];
    if (!evicted) items.push(podObj(n.pod, n.node, 300));
    else items.push({ ...podObj(`${n.pod}-r`, n.other, 300), status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    items.push(...this.extra);
    return { time: formatTime(this.now), zones: this.zones(), objects: { apiVersion: 'v1', kind: 'List', items } };
  }

  zones(): ZoneView[] {
    const unknown = this.has('NodeStatusUnknown', `Node/${this.names.node}`);
    return [
      {
        zone: `Zone/${this.names.zoneA}`,
        state: this.current === null ? 'Initial' : 'Normal',
        nodes: 1,
        notReady: unknown ? 1 : 0,
        evictionRate: 0.1,
        queued: [],
      },
      { zone: `Zone/${this.names.zoneB}`, state: this.current === null ? 'Initial' : 'Normal', nodes: 1, notReady: 0, evictionRate: 0.1, queued: [] },
    ];
  }

  private readonly lookup = new MachineLookup();
  machine(id: string): MachineView | undefined {
    return this.lookup.machine(this, id);
  }
  machineIds(object: string): { own: string[]; stateless: string[] } {
    return machineIdsOf(object);
  }

  machines(): MachineView[] {
    const id = `node/${this.names.node}`;
    const last = [...this.trace].reverse().find((d) => d.machine?.id === id);
    return [
      {
        id,
        state: last?.machine?.to ?? 'ready',
        definition: nodeMachine.definition,
        ...(last?.machine ? { lastTransition: { ...last.machine, seq: last.seq } } : {}),
      },
      { id: `node/${this.names.other}`, state: 'ready', definition: nodeMachine.definition },
    ];
  }

  explain(object: string): Explanation {
    const happened = this.trace.filter((d) => d.object === object && d.action !== 'MonitorPass').map((decision) => ({ decision, chain: this.chain(decision) }));
    const whyNot: Explanation['whyNot'] = [];
    if (object === `Pod/default/${this.names.survivor}`) {
      whyNot.push({
        what: 'PodEvicted',
        check: { rule: 'the pod tolerates node.kubernetes.io/unreachable:NoExecute forever (no tolerationSeconds)', values: { tolerationSeconds: null } },
      });
    }
    return { object, exists: true, happened, whyNot };
  }

  private chain(d: Decision): Decision[] {
    const out: Decision[] = [];
    const todo = [...d.causes];
    while (todo.length) {
      const c = this.all[(todo.pop() as number) - 1];
      if (c && !out.includes(c)) {
        out.push(c);
        todo.push(...c.causes);
      }
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  checkExpectations() {
    return [];
  }
}

export const fakePasses = { STOP_PASS, UNKNOWN_PASS, TAINT_PASS, EVICT_PASS, MAX_PASS };
