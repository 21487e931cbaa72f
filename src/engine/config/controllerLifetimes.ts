/**
 * When kube-controller-manager's --controllers learnt or forgot the names of the controllers the
 * simulation does not model (settings.ts OTHER_KCM_CONTROLLERS). A name --controllers does not know
 * stops kube-controller-manager ("is not in the list of known controllers"), so a name the version
 * lacks is an error, as for an ignored flag (flagLifetimes.ts).
 *
 * The old short names were checked against the --controllers help of 1.11 (whose list 1.12 extends
 * with ttl-after-finished, the TTL controller's config being in kubernetes-1.12.0) and are aliases of
 * the canonical names from 1.28 on (cmd/kube-controller-manager/names: "the old name should be
 * aliased ... while preserving all old aliases"); the canonical `*-controller` names came in 1.28
 * (#115813). Each exception is below with the change that says so.
 */
import { MIN_MINOR } from '../versions/table';
import { lifetimeGap, type Lifetime } from './lifetimes';

export interface ControllerLifetime extends Lifetime {
  /** why it was removed, for the message */
  removedWhy?: string;
}

const KK = 'kubernetes/kubernetes';
const CANONICAL = 28;
const CANONICAL_SOURCE = `${KK}#115813 (cmd/kube-controller-manager/names: the canonical *-controller names, the old ones kept as aliases)`;
const CLOUD_GONE = `${KK}#138002 (CHANGELOG-1.37: the cloud provider's controllers, no-ops since 1.31, no longer registered)`;
const CLOUD_WHY = `${KK}#138002: a no-op since 1.31, when the cloud provider's controllers left kube-controller-manager`;
const GARDENER = 'gardener/gardener pkg/utils/kubernetes/controllers.go (APIGroupControllerMap, AddedInVersion)';
/** Before 1.28 the map of controllers was built with the feature gates' values: such a name was known only with them on. */
const GATED = 'before 1.28 registered only with its feature gates on';

export const OTHER_CONTROLLER_LIFETIMES: Readonly<Record<string, ControllerLifetime>> = {
  'root-ca-cert-publisher': { since: 13, source: `${KK}#68812 (kubeadm#1286 meets it in 1.13's kube-controller-manager)` },
  'cloud-node-lifecycle': { since: 14, removedIn: 37, source: `${KK}#70344 (merged for 1.14, ${KK}#72499); ${CLOUD_GONE}`, removedWhy: CLOUD_WHY },
  endpointslice: { since: 16, source: `${KK}#81048 (EndpointSlice controller; config at kubernetes-1.16.0)` },
  endpointslicemirroring: { since: 19, source: `${KK}#91637 (EndpointSliceMirroring controller; config at kubernetes-1.19.0)` },
  'ephemeral-volume': { since: 19, source: `${KK}#92784 (generic ephemeral inline volumes, KEP-1698 alpha in 1.19)` },
  'storage-version-gc': { since: 20, source: `${KK}#95978 (${GATED}: APIServerIdentity and StorageVersionAPI)` },
  'resource-claim-controller': { since: 26, source: `KEP-3063 dynamic resource allocation, alpha in 1.26 (${GATED}: DynamicResourceAllocation)` },
  'legacy-service-account-token-cleaner': { since: 28, source: `${KK}#115554 (config at kubernetes-1.28.0); ${GARDENER}` },
  'service-cidr-controller': { since: 29, source: GARDENER },
  'storage-version-migrator-controller': { since: 30, source: `${KK}#123344 (KEP-4192); ${GARDENER}` },
  'selinux-warning-controller': { since: 32, source: GARDENER },
  'kube-apiserver-serving-clustertrustbundle-publisher-controller': { since: 32, source: GARDENER },
  'volumeattributesclass-protection-controller': { since: 32, source: GARDENER },
  'device-taint-eviction-controller': {
    since: 33,
    source: `${KK}#130447 (KEP-5055 device taints, with the eviction controller; its DeviceTaintRule API first in k8s.io/api at kubernetes-1.33.0)`,
  },
  'podcertificaterequest-cleaner-controller': {
    since: 34,
    source: `${KK} cmd/kube-controller-manager/app/controllermanager_test.go TestControllerNamesDeclaration (names.PodCertificateRequestCleanerController, gated by PodCertificateRequest: KEP-4317, alpha in 1.34); ${GARDENER}`,
  },
  service: { removedIn: 37, source: CLOUD_GONE, removedWhy: CLOUD_WHY },
  route: { removedIn: 37, source: CLOUD_GONE, removedWhy: CLOUD_WHY },
  'service-lb-controller': { since: CANONICAL, removedIn: 37, source: `${CANONICAL_SOURCE}; ${CLOUD_GONE}`, removedWhy: CLOUD_WHY },
  'node-route-controller': { since: CANONICAL, removedIn: 37, source: `${CANONICAL_SOURCE}; ${CLOUD_GONE}`, removedWhy: CLOUD_WHY },
  'cloud-node-lifecycle-controller': { since: CANONICAL, removedIn: 37, source: `${CANONICAL_SOURCE}; ${CLOUD_GONE}`, removedWhy: CLOUD_WHY },
};

/** The versions a name of OTHER_KCM_CONTROLLERS is known in when the table has no entry for it. */
function lifetimeOf(name: string): ControllerLifetime {
  return (
    OTHER_CONTROLLER_LIFETIMES[name] ??
    (name.endsWith('-controller') ? { since: CANONICAL, source: CANONICAL_SOURCE } : { since: MIN_MINOR, source: 'the --controllers help of 1.11' })
  );
}

/** Why kube-controller-manager 1.`minor` does not know a controller name, or undefined when it does. */
export function otherControllerMissingIn(name: string, minor: number): string | undefined {
  const life = lifetimeOf(name);
  const gap = lifetimeGap(life, minor);
  if (!gap) return undefined;
  if ('removedIn' in gap) return `was removed in 1.${gap.removedIn}${life.removedWhy ? ` (${life.removedWhy})` : ''}; Kubernetes 1.${minor} does not have it`;
  return `exists from 1.${gap.since}; Kubernetes 1.${minor} does not have it`;
}
