/** What the stream readers of JSON (jsonListStream.ts) and YAML (yamlDocStream.ts, yamlListStream.ts) read and say. */

/** A piece of a file: text, or UTF-8 bytes */
export type Chunk = string | Uint8Array;

export interface TextPoint {
  /** 0-based offset in UTF-16 units from the start of the stream */
  offset: number;
  /** 1-based */
  line: number;
  /** 1-based, UTF-16 units */
  column: number;
}
