/**
 * The README's generated sections: the version table and the settings table,
 * each between `<!-- NAME:begin -->` and `<!-- NAME:end -->` markers.
 * Pure string in, string out; scripts/render-readme-tables.ts writes the file.
 */
import { renderSettingsTableMarkdown } from '../config/settings';
import { renderVersionTableMarkdown } from './table';

export interface ReadmeSection {
  name: string;
  render: () => string;
}

export const README_SECTIONS: readonly ReadmeSection[] = [
  { name: 'version-table', render: renderVersionTableMarkdown },
  { name: 'settings-table', render: renderSettingsTableMarkdown },
];

export interface ReadmeUpdate {
  text: string;
  /** sections whose markers are missing (nothing was written for them) */
  missing: string[];
  /** sections whose content changed */
  changed: string[];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces what is between each pair of markers by the freshly rendered table. */
export function updateReadmeSections(readme: string): ReadmeUpdate {
  let text = readme;
  const missing: string[] = [];
  const changed: string[] = [];
  for (const s of README_SECTIONS) {
    const re = new RegExp(`(<!-- ${escape(s.name)}:begin -->)([\\s\\S]*?)(<!-- ${escape(s.name)}:end -->)`);
    const m = re.exec(text);
    if (!m) {
      missing.push(s.name);
      continue;
    }
    const body = `\n${s.render()}`;
    if (m[2] !== body) changed.push(s.name);
    text = text.slice(0, m.index) + m[1] + body + m[3] + text.slice(m.index + m[0].length);
  }
  return { text, missing, changed };
}
