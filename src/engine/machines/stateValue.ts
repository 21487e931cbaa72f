/** `{unknown: 'queued'}` -> `unknown.queued`; parallel regions are joined with `,`. */
export function stateValueToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => {
        const inner = stateValueToString(v);
        return inner ? `${k}.${inner}` : k;
      })
      .join(',');
  }
  return '';
}
