/**
 * The real exports the loader must read (their SOURCES.md says where each came from): they sit in
 * shared/ beside the checkout, in CI as on a developer's machine, not in the repository.
 */
import { join, resolve } from 'node:path';

export const REAL_FIXTURES = resolve(__dirname, '../../../shared/fixtures/real');

export const realFixture = (name: string): string => join(REAL_FIXTURES, name);
