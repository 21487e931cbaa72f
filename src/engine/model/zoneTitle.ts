/**
 * A zone's name as people read it (the panel, the command line's state): the trace's `Zone/KEY`, and what an empty
 * part means. Nodes without zone labels are keyed in the zone "" (GetZoneKey), which reads as a name cut short:
 * `Zone/`, `Zone/REGION/`.
 */
export function zoneTitle(ref: string): string {
  if (ref === 'Zone/') return 'Zone/ (no zone labels)';
  return ref.endsWith('/') ? `${ref} (no zone label)` : ref;
}
