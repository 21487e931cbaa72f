import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LABEL_REGION, LABEL_REGION_BETA, LABEL_ZONE, LABEL_ZONE_BETA, zoneKeyOfLabels, zoneLabelsOf } from '../../../src/engine/model/zones';

// GetZoneKey as it was written before the labels were read first: hasOwnProperty, then the value
function reference(labels: Record<string, string> | undefined): { region: string; zone: string; key: string } {
  const l = labels ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  const zone = (has(LABEL_ZONE) ? l[LABEL_ZONE] : has(LABEL_ZONE_BETA) ? l[LABEL_ZONE_BETA] : '') ?? '';
  const region = (has(LABEL_REGION) ? l[LABEL_REGION] : has(LABEL_REGION_BETA) ? l[LABEL_REGION_BETA] : '') ?? '';
  return { region, zone, key: region === '' && zone === '' ? '' : region === '' ? zone : `${region}/${zone}` };
}

test('zone keys and labels are those of the hasOwnProperty-first reference, for every mix of GA, beta, empty and missing labels', () => {
  const keys = [LABEL_ZONE, LABEL_ZONE_BETA, LABEL_REGION, LABEL_REGION_BETA];
  const values: (string | undefined | null)[] = ['a', 'b', '', undefined, null];
  // every assignment of (absent | one of the values) to the four labels
  const choices = values.length + 1;
  for (let n = 0; n < choices ** keys.length; n++) {
    for (const proto of [true, false]) {
      const l: Record<string, string> = proto ? {} : Object.create(null);
      let m = n;
      for (const k of keys) {
        const c = m % choices;
        m = Math.floor(m / choices);
        if (c < values.length) (l as Record<string, unknown>)[k] = values[c];
      }
      const want = reference(l);
      assert.deepEqual(zoneLabelsOf(l), { region: want.region, zone: want.zone }, JSON.stringify(l));
      assert.equal(zoneKeyOfLabels(l), want.key, JSON.stringify(l));
    }
  }
  assert.equal(zoneKeyOfLabels(undefined), '');
  assert.deepEqual(zoneLabelsOf(undefined), { region: '', zone: '' });
});
