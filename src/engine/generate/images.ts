/** The image IDs generated pods report in their container statuses (objects.ts). */
import { hashString } from './random';

/** A stable fake image digest (the same image always has the same digest). */
function digest(name: string): string {
  let out = '';
  for (let i = 0; out.length < 64; i++) out += hashString(`${i}:${name}`).toString(16).padStart(8, '0');
  return out.slice(0, 64);
}

export function imageID(image: string): string {
  const repo = image.replace(/:[^/:]+$/, '');
  const full = repo.includes('/') && /[.:]/.test(repo.split('/')[0]) ? repo : repo.includes('/') ? `docker.io/${repo}` : `docker.io/library/${repo}`;
  return `${full}@sha256:${digest(image)}`;
}
