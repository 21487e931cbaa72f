import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { parseWebviewMessage, type HostMessage } from '../../src/protocol/webview';

// The session over the real engine and a bundled example, given what a webview could send.
function open() {
  const sent: HostMessage[] = [];
  const o = openScenario(resolve(__dirname, '../../examples/one-node-stops.yaml'), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  return { session, sent };
}
const actions = { play() {}, pause() {} };

test("a goToPass from the webview past the simulation's last pass is refused with a message, and the position stays", () => {
  const { session } = open();
  session.goToPass(3);
  const last = session.sim.lastPass;
  assert.ok(Number.isSafeInteger(last) && last > 3, String(last));
  const m = parseWebviewMessage({ type: 'goToPass', pass: last + 1 });
  assert.ok(m, "a whole number passes the protocol: the range is the session's to check");
  const r = session.handle(m, actions);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : (r.message ?? ''), new RegExp(`No pass ${last + 1}: the simulation stops at pass ${last}`));
  assert.equal(session.sim.pass, 3);
});

test('a pass the panel could not have saved (beyond the horizon, negative, fractional) is refused by the check the serializer uses; a reachable one is not', () => {
  const { session } = open();
  const last = session.sim.lastPass;
  assert.equal(session.passProblem(0), undefined);
  assert.equal(session.passProblem(12), undefined);
  assert.equal(session.passProblem(last), undefined);
  for (const bad of [last + 1, 1e12, -1, 2.5, NaN, Infinity, '4']) assert.ok(session.passProblem(bad), `pass ${String(bad)} is refused`);
});

test('a what-if of nodeMonitorPeriod=1us is refused with a message and nothing is run or sent', () => {
  const { session, sent } = open();
  session.goToPass(4);
  const before = sent.length;
  const trace = session.sim.trace.length;
  const r = session.handle({ type: 'whatIf', key: 'nodeMonitorPeriod', value: '1us' }, actions);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : (r.message ?? ''), /nodeMonitorPeriod=1us: .*1ms or more/);
  assert.equal(sent.length, before, 'no comparison is sent');
  assert.equal(session.sim.trace.length, trace);
  assert.equal(session.sim.pass, 4);
});

for (const [key, value, message] of [
  ['foo', '1', /unknown controllerManager setting --set foo/],
  ['nodeMonitorPeriod', 'abc', /"abc" is not a duration/],
  ['nodeMonitorPeriod', '-5s', /out of range; it must be > 0/],
  ['nodeEvictionRate', 'NaN', /expected a number/],
] as const) {
  test(`a what-if of ${key}=${value} is refused with the setting's own message before anything runs`, () => {
    const { session, sent } = open();
    const before = sent.length;
    const r = session.handle({ type: 'whatIf', key, value }, actions);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : (r.message ?? ''), message);
    assert.equal(sent.length, before);
  });
}
