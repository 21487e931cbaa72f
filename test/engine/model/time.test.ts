import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatTime, formatTimeByParts, parseDuration, parseTimestamp, ZERO_TIME, seconds, ms } from '../../../src/engine/model/time';

test('durations are parsed exactly, as Go time.ParseDuration does', () => {
  const cases: [string, number | undefined][] = [
    ['40s', seconds(40)],
    ['1m30s', seconds(90)],
    ['100ms', ms(100)],
    ['1.5h', seconds(5400)],
    ['0', 0],
    ['5m', seconds(300)],
    ['2h45m0.5s', seconds(9900.5)],
    ['-3s', -seconds(3)],
    ['250us', 250],
    ['', undefined],
    ['5', undefined],
    ['1d', undefined],
    ['abc', undefined],
    ['1m-3s', undefined],
  ];
  for (const [text, want] of cases) assert.equal(parseDuration(text), want, text);
});

test('durations beyond what Go can hold are refused, as time.ParseDuration refuses them', () => {
  const cases: [string, number | undefined][] = [
    ['99999999999999999999h', undefined],
    ['2562047h47m16.854775807s', 9_223_372_036_854_776],
    ['2562047h47m16.854775808s', undefined],
    ['-2562047h47m16.854775808s', -9_223_372_036_854_776],
    ['9223372036854775807ns', 9_223_372_036_854_776],
    ['9223372036854775808ns', undefined],
    ['0000000000000000000000000000001s', 1_000_000],
    ['1.00000000000000000000000000001s', 1_000_000],
    ['.5s', 500_000],
    ['5.s', 5_000_000],
    ['.s', undefined],
    ['1.2.3s', undefined],
    ['+0', 0],
    ['-0', 0],
    ['00', undefined],
    ['1µs', 1],
    ['1μs', 1],
    ['1500ns', 2],
    ['-', undefined],
    ['1h1', undefined],
    ['1e3s', undefined],
    ['Infinitys', undefined],
  ];
  for (const [text, want] of cases) assert.equal(parseDuration(text), want, text);
});

test('a duration of 100 KB of digits is answered by one scan (refused, not backtracked over)', () => {
  assert.equal(parseDuration('1'.repeat(100_000)), undefined);
  assert.equal(parseDuration(`${'1'.repeat(100_000)}s`), undefined);
  assert.equal(parseDuration(`1s${'0'.repeat(100_000)}`), undefined);
  assert.equal(parseDuration(`0.${'0'.repeat(100_000)}1s`), 0);
});

test('durations are printed as Go prints them', () => {
  const cases: [number, string][] = [
    [seconds(40), '40s'],
    [seconds(300), '5m0s'],
    [ms(100), '100ms'],
    [seconds(3600), '1h0m0s'],
    [seconds(90), '1m30s'],
    [0, '0s'],
    [seconds(1.5), '1.5s'],
    [-seconds(2), '-2s'],
  ];
  for (const [d, want] of cases) assert.equal(formatDuration(d), want);
});

test('timestamps keep microseconds and honour offsets', () => {
  const t = parseTimestamp('2024-04-05T04:19:33.283190Z');
  assert.equal(t! % 1_000_000, 283190);
  assert.equal(parseTimestamp('2026-01-01T01:00:00+01:00'), parseTimestamp('2026-01-01T00:00:00Z'));
  assert.equal(parseTimestamp('0001-01-01T00:00:00Z'), ZERO_TIME);
  assert.equal(formatTime(parseTimestamp('2026-01-01T00:01:15.1Z')!), '2026-01-01T00:01:15.100Z');
  assert.equal(formatTime(ZERO_TIME), '0001-01-01T00:00:00.000Z');
  for (const bad of ['2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', 'yesterday', '2026-01-01']) {
    assert.equal(parseTimestamp(bad), undefined, bad);
  }
});

test('formatTime gives the same text as Date.toISOString and as building it from its parts', () => {
  const edges = [-62_167_219_200_000, -62_135_596_800_000, -1, 0, 1, 951_782_400_000, 1_767_225_600_123, 4_102_444_799_999, 253_402_300_799_999];
  let x = 12345;
  const random = Array.from({ length: 2000 }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * 253_402_300_799_999 * 1.2) - 62_167_219_200_000;
  });
  for (const ms0 of [...edges, ...random]) {
    const ms1 = Math.min(ms0, 253_402_300_799_999);
    for (const t of [ms1 * 1000, ms1 * 1000 + 999]) {
      assert.equal(formatTime(t), formatTimeByParts(Math.floor(t / 1000)), `at ${t} µs`);
      const m = Math.floor(t / 1000); // beyond 2^53 µs the product above is rounded, possibly past year 9999
      if (m <= 253_402_300_799_999) assert.equal(formatTime(t), new Date(m).toISOString(), `at ${t} µs`);
    }
  }
  // every millisecond of a day boundary, and of leap days, in a row (the memo of the last day and the last answer)
  for (const start of [Date.UTC(2026, 0, 1) - 1500, Date.UTC(2000, 1, 29) - 700, Date.UTC(2100, 1, 28, 23, 59, 59), Date.UTC(1969, 11, 31, 23, 59, 59)]) {
    for (let m = start; m < start + 3000; m++) {
      for (const t of [m * 1000, m * 1000 + 500, m * 1000]) assert.equal(formatTime(t), new Date(m).toISOString(), `at ${m} ms`);
    }
  }
  // an instant every 37 minutes over 30 years, forward and back
  const steps = Array.from({ length: 430_000 }, (_, i) => Date.UTC(2000, 0, 1) + i * 2_220_017);
  for (const m of [...steps, ...steps.reverse()]) assert.equal(formatTime(m * 1000), new Date(m).toISOString(), `at ${m} ms`);
  // outside four-digit years the parts are used
  assert.equal(formatTime(-62_167_219_200_001 * 1000), formatTimeByParts(-62_167_219_200_001));
});

test('formatTime is the inverse of parseTimestamp at millisecond precision', () => {
  for (const s of ['1970-01-01T00:00:00.000Z', '2000-02-29T23:59:59.999Z', '2026-11-30T02:01:10.123Z', '1969-12-31T23:59:59.500Z']) {
    assert.equal(formatTime(parseTimestamp(s)!), s);
  }
});
