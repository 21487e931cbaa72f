import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../../src/engine/config/resolve';
import { kubeVersion } from '../../../src/engine/versions/table';
import type { SettingInput } from '../../../src/engine/config/resolve';

function problems(settings: Record<string, unknown>, kubelet: Record<string, unknown> = {}, flags: string[] = []): string[] {
  const at = (line: number) => ({ file: 's.yaml', line, column: 3 });
  const s: SettingInput = {};
  let line = 10;
  for (const [k, v] of Object.entries(settings)) s[k] = { value: v, position: at(line++) };
  const k: SettingInput = {};
  for (const [key, v] of Object.entries(kubelet)) k[key] = { value: v, position: at(line++) };
  const r = resolveConfig({ settings: s, featureGates: {}, flags: flags.map((text, i) => ({ text, position: at(30 + i) })) }, k, kubeVersion(31));
  return r.problems
    .filter((p) => ['period-below-limit', 'absurd-setting', 'out-of-range', 'wrong-type'].includes(p.code))
    .map((p) => `${p.severity} ${p.code}@${p.position?.line}`);
}

test('periods the simulation cannot run are refused; legal but absurd ones are warned about', () => {
  const cases: [what: string, settings: Record<string, unknown>, kubelet: Record<string, unknown>, flags: string[], want: string[]][] = [
    ['a monitor period of 1us', { nodeMonitorPeriod: '1us' }, {}, [], ['error period-below-limit@10']],
    ['a monitor period of 1us as a flag', {}, {}, ['--node-monitor-period=1us'], ['error period-below-limit@30']],
    ['a heartbeat of 999us', {}, { nodeStatusUpdateFrequency: '999us' }, [], ['error period-below-limit@10']],
    ['a monitor period of 500ms', { nodeMonitorPeriod: '500ms' }, {}, [], ['warning absurd-setting@10']],
    ['a grace period under the monitor period', { nodeMonitorPeriod: '1m', nodeMonitorGracePeriod: '30s' }, {}, [], ['warning absurd-setting@11']],
    ['an eviction rate of 1e400 (Infinity)', { secondaryNodeEvictionRate: Infinity }, {}, [], ['error wrong-type@10']],
    ['a burst of 2^31', { burstReplicas: 2_147_483_648 }, {}, [], ['error out-of-range@10']],
    ['sensible settings', { nodeMonitorPeriod: '1s', nodeMonitorGracePeriod: '40s', burstReplicas: 2_147_483_647 }, {}, [], []],
  ];
  for (const [what, settings, kubelet, flags, want] of cases) assert.deepEqual(problems(settings, kubelet, flags), want, what);
});
