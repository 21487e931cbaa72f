/**
 * Hover: every setting, flag, feature gate and scenario field, with its
 * default for the document's version. Settings and gates come from the
 * engine's tables (settingHoverMarkdown / gateHoverMarkdown), scenario fields
 * from lint/fieldDocs.ts.
 */
import type { Hover, Position } from 'vscode-languageserver';
import { gateHoverMarkdown, settingHoverMarkdown } from '../../engine/config/resolve';
import { lookupSetting, settingByConfigPath } from '../../engine/config/settings';
import { IGNORED_KCM_FLAGS } from '../../engine/config/flags';
import { ignoredFlagMissingIn, ignoredFlagVersions } from '../../engine/config/flagLifetimes';
import { MAX_MINOR } from '../../engine/versions/table';
import { EVENT_FIELDS, EVENT_KINDS, EXPECT_FIELDS, SCENARIO_FIELDS, fieldMarkdown } from '../../engine/lint/fieldDocs';
import type { Analysis } from './analyze';
import { nodeAt } from './yamlPath';
import { escapeMarkdown } from './markdown';

export function hover(a: Analysis, position: Position): Hover | null {
  const doc = a.ctx.document;
  if (!doc) return null;
  const offset = a.lines.offsetAt(position);
  const at = nodeAt(doc, offset);
  if (!at || !at.path.length) return null;
  const md = markdownFor(a, at.path, at.inKey, at.scalar, offset);
  if (!md) return null;
  const range = at.scalar ? a.lines.range(at.scalar.start, at.scalar.end) : undefined;
  return { contents: { kind: 'markdown', value: md }, ...(range ? { range } : {}) };
}

function markdownFor(
  a: Analysis,
  path: (string | number)[],
  inKey: boolean,
  scalar: { value: unknown; start: number; end: number } | undefined,
  offset: number,
): string | undefined {
  const v = a.ctx.version;
  const [p0, p1, p2] = path;
  switch (a.kind) {
    case 'scenario': {
      if (path.length === 1 && typeof p0 === 'string' && SCENARIO_FIELDS[p0]) return fieldMarkdown(p0, SCENARIO_FIELDS[p0], 'scenario');
      if (p0 === 'controllerManager' && typeof p1 === 'string') {
        if (p1 === 'featureGates' && typeof p2 === 'string')
          return gateHoverMarkdown(p2, v) ?? `**${escapeMarkdown(p2)}**: not a feature gate the simulation models.`;
        if (p1 === 'flags' && typeof p2 === 'number' && scalar)
          return flagMarkdown(a, String(scalar.value), offset - scalar.start - (/^["']/.test(a.text[scalar.start]) ? 1 : 0));
        if (p1 === 'featureGates' || p1 === 'flags' || p1 === 'configFile' || p1 === 'controllers') {
          return settingHoverMarkdown(p1, v) ?? structureDoc(p1);
        }
        return settingHoverMarkdown(p1, v);
      }
      if (p0 === 'kubelet' && typeof p1 === 'string') return settingHoverMarkdown(p1, v);
      if ((p0 === 'events' || p0 === 'expect') && typeof p1 === 'number' && typeof p2 === 'string' && (inKey || path.length === 3)) {
        if (p0 === 'events') {
          if (EVENT_KINDS[p2]) return fieldMarkdown(p2, EVENT_KINDS[p2], 'event kind');
          if (EVENT_FIELDS[p2]) return fieldMarkdown(p2, EVENT_FIELDS[p2], 'event field');
        } else if (EXPECT_FIELDS[p2]) return fieldMarkdown(p2, EXPECT_FIELDS[p2], 'expectation');
      }
      return undefined;
    }
    case 'kcm-pod': {
      // spec.containers[i].command[j] / args[j]
      if (p0 === 'spec' && p1 === 'containers' && path[4] !== undefined && (path[3] === 'command' || path[3] === 'args') && scalar) {
        return flagMarkdown(a, String(scalar.value), offset - scalar.start - (/^["']/.test(a.text[scalar.start]) ? 1 : 0));
      }
      return undefined;
    }
    case 'kcm-config': {
      const names = path.filter((s): s is string => typeof s === 'string');
      if (names[0] === 'featureGates' && names[1])
        return gateHoverMarkdown(names[1], v) ?? `**${escapeMarkdown(names[1])}**: not a feature gate the simulation models.`;
      const row = settingByConfigPath(names.join('.'));
      return row ? settingHoverMarkdown(row.key, v) : undefined;
    }
    default:
      return undefined;
  }
}

function structureDoc(key: string): string | undefined {
  switch (key) {
    case 'flags':
      return '**flags** (controllerManager)\n\nkube-controller-manager command-line flags, `--name=value`, applied after the keys here (the last occurrence wins). Flags the chosen version does not have are reported and not applied.';
    case 'configFile':
      return "**configFile** (controllerManager)\n\nA KubeControllerManagerConfiguration file, or the kube-controller-manager static Pod manifest whose command flags are read; relative to this scenario. The scenario's keys and flags override it.";
    case 'featureGates':
      return '**featureGates** (controllerManager)\n\nFeature gates by name: `{TaintBasedEvictions: true}`. Gates the version does not have, or locked ones set to the other value, are reported and not applied.';
    default:
      return undefined;
  }
}

/** Hover for a command-line word: the flag's setting, or the gate under the caret in --feature-gates. */
function flagMarkdown(a: Analysis, word: string, caret: number): string | undefined {
  const m = /^(--?[\w-]+)(?:=(.*))?$/.exec(word.trim());
  if (!m) return undefined;
  const flag = '--' + m[1].replace(/^-+/, '');
  if (flag === '--feature-gates' && m[2] !== undefined) {
    // which gate is under the caret
    const valueStart = word.indexOf('=') + 1;
    let pos = valueStart;
    for (const part of m[2].split(',')) {
      if (caret >= pos && caret <= pos + part.length) {
        const name = part.split('=')[0].trim();
        return gateHoverMarkdown(name, a.ctx.version) ?? `**${escapeMarkdown(name)}**: not a feature gate the simulation models.`;
      }
      pos += part.length + 1;
    }
  }
  const md = settingHoverMarkdown(flag, a.ctx.version);
  if (md) return md;
  const bare = flag.slice(2);
  if (IGNORED_KCM_FLAGS.has(bare)) {
    const versions = `kube-controller-manager ${ignoredFlagVersions(bare, MAX_MINOR)}`;
    const missing = ignoredFlagMissingIn(bare, a.ctx.version.minor);
    return missing
      ? `**${escapeMarkdown(flag)}** (${versions})\n\nThe flag ${missing}: kube-controller-manager ${a.ctx.version.text} refuses to start with it (unknown flag).`
      : `**${escapeMarkdown(flag)}** (${versions})\n\nA kube-controller-manager flag the simulation does not model: accepted and ignored.`;
  }
  return lookupSetting(flag) ? undefined : `**${escapeMarkdown(flag)}**\n\nNot a kube-controller-manager flag.`;
}
