/**
 * A scripted SimController for simulation-loop tests: it logs every call the
 * simulation makes (start, informer events, wakes with the clock and pass),
 * wakes at the times it is given, and can take a decision or an API call
 * on a wake.
 */
import type { SimController, WatchType } from '../../src/engine/controllers/controller';
import type { ControllerHost } from '../../src/engine/controllers/controllerHost';
import type { Micros } from '../../src/engine/model/time';
import { formatTime } from '../../src/engine/model/time';
import type { ControllerName } from '../../src/engine/trace/decision';
import type { ControllerFactory } from '../../src/engine/simulation/controllerPlan';

export interface FakeScript {
  /** absolute times (µs) at which it asks to be woken */
  wakes?: Micros[];
  /** what to do on a wake */
  onWake?: (host: ControllerHost, self: FakeController) => void;
}

export class FakeController implements SimController {
  log: string[] = [];
  wakes: Micros[];
  memory: { started?: Micros; saved: number } = { saved: 0 };
  counter = 0;
  constructor(
    readonly name: ControllerName,
    private script: FakeScript,
    private shared: string[],
  ) {
    this.wakes = [...(script.wakes ?? [])].sort((a, b) => a - b);
  }
  private note(s: string) {
    this.log.push(s);
    this.shared.push(`${this.name} ${s}`);
  }
  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void {
    this.memory.started = host.now;
    this.note(`start ${memory} ${formatTime(host.now)}`);
    // monitor passes are driven by the simulation; a fake node-lifecycle asks for nothing else
  }
  onNodeEvent(_h: ControllerHost, type: WatchType, node: { meta: { name: string } }): void {
    this.note(`node ${type} ${node.meta.name}`);
  }
  onPodEvent(_h: ControllerHost, type: WatchType, pod: { meta: { namespace: string; name: string } }): void {
    this.note(`pod ${type} ${pod.meta.namespace}/${pod.meta.name}`);
  }
  onReplicaSetEvent(_h: ControllerHost, type: WatchType, rs: { meta: { name: string } }): void {
    this.note(`rs ${type} ${rs.meta.name}`);
  }
  onLeaseEvent(_h: ControllerHost, type: WatchType, l: { meta: { name: string } }): void {
    this.note(`lease ${type} ${l.meta.name}`);
  }
  nextWake(): Micros | undefined {
    return this.wakes[0];
  }
  wake(host: ControllerHost): void {
    while (this.wakes.length && this.wakes[0] <= host.now) this.wakes.shift();
    this.counter++;
    this.note(`wake ${formatTime(host.now)} pass=${host.pass}`);
    this.script.onWake?.(host, this);
  }
  machines() {
    return [];
  }
  whyNot() {
    return [{ what: `${this.name} test`, check: { rule: `${this.name} says why not` } }];
  }
  save(): unknown {
    return { wakes: [...this.wakes], counter: this.counter, started: this.memory.started };
  }
  restore(saved: unknown): void {
    const s = saved as { wakes: Micros[]; counter: number; started: Micros };
    this.wakes = [...s.wakes];
    this.counter = s.counter;
    this.memory.started = s.started;
  }
}

/** A factory that builds fakes for the given controllers (new instances at every start), sharing one log. */
export function fakeFactory(scripts: Partial<Record<ControllerName, FakeScript>>, log: string[] = [], built: FakeController[] = []): ControllerFactory {
  return (name) => {
    const s = scripts[name];
    if (!s) return undefined;
    const c = new FakeController(name, s, log);
    built.push(c);
    return c;
  };
}
