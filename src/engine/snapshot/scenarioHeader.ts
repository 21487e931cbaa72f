/**
 * What makes a file a scenario: its header and its top-level keys. A leaf module, so that the
 * loader's sniffing (sniff.ts, which scenario.ts's loader imports) can tell a scenario that lost
 * its header from a snapshot.
 */
export const SCENARIO_API_VERSION = 'controllerstepper.io/v1alpha1';

export const SCENARIO_TOP_KEYS = [
  'apiVersion',
  'kind',
  'metadata',
  'kubernetesVersion',
  'startTime',
  'controllerMemory',
  'missingLeases',
  'binder',
  'snapshot',
  'objects',
  'controllerManager',
  'kubelet',
  'events',
  'expect',
  'reality',
] as const;

/** What a scenario without its header is told to write first. */
export const SCENARIO_HEADER = `apiVersion: ${SCENARIO_API_VERSION} and kind: Scenario`;

/** How the loader names a file that has a scenario's keys and no header (sniff.ts); the quick fix adds the header. */
export const WITHOUT_HEADER = 'a scenario without its header';
