/**
 * Text from the user's document, made safe to put into hover and completion markdown: every
 * character markdown gives a meaning to is escaped (so `![x](https://evil/track.png)` shows as
 * text and loads nothing), HTML's angle brackets included, line breaks become spaces, and a
 * long word is cut short.
 */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~"'&:=]/g;
const MAX_SHOWN = 200;

export function escapeMarkdown(text: string): string {
  const short = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  // eslint-disable-next-line no-control-regex
  return short.replace(/[\r\n\t\u0000-\u001f\u007f]+/g, ' ').replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);
}
