/**
 * What changed since a view last asked (SimHost.takePodChanges, takeRecordChanges): the keys of the
 * pods, and the names of the nodes and keys of the ReplicaSets, that the host announced. Nothing is
 * kept until a view first asks (most runs have none: the command line, the benches).
 */
export class ViewChanges {
  /** Keys of the pods created, changed or deleted since takePods; null until it is first called. */
  private pods: Set<string> | null = null;
  private podsLost = true;
  /** Names of the nodes and keys of the ReplicaSets announced since takeRecords; null until it is first called. */
  private records: { nodes: Set<string>; replicaSets: Set<string> } | null = null;
  private recordsLost = true;

  pod(key: string): void {
    this.pods?.add(key);
  }
  node(name: string): void {
    this.records?.nodes.add(name);
  }
  replicaSet(key: string): void {
    this.records?.replicaSets.add(key);
  }

  /** the records were put in wholesale (the start): a view must compare them all */
  lost(): void {
    this.podsLost = true;
    this.recordsLost = true;
  }

  /** see SimHost.takePodChanges */
  takePods(): ReadonlySet<string> | 'all' {
    const out = this.pods === null || this.podsLost ? 'all' : this.pods;
    this.pods = new Set();
    this.podsLost = false;
    return out;
  }

  /** see SimHost.takeRecordChanges */
  takeRecords(): { nodes: ReadonlySet<string> | 'all'; replicaSets: ReadonlySet<string> | 'all' } {
    const lost = this.records === null || this.recordsLost;
    const out = lost ? { nodes: 'all' as const, replicaSets: 'all' as const } : (this.records as { nodes: Set<string>; replicaSets: Set<string> });
    this.records = { nodes: new Set(), replicaSets: new Set() };
    this.recordsLost = false;
    return out;
  }
}
