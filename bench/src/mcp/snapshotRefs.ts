/**
 * Reads element refs out of a snapshot, whose lines look like
 *   - button "Click me" [e2]
 *   - textbox "Name" [e3]: current value
 * The first element with a given role and name wins, as an agent reading top-down would pick.
 */
const LINE = /^\s*- ([\w-]+)(?: ("(?:[^"\\]|\\.)*"))?(?: \[[^\]]*\])*? \[(e\d+)\](?=$|[\s:])/;

export type RefTable = ReadonlyMap<string, string>;

export function refKey(role: string, name: string): string {
  return `${role}\u0000${name}`;
}

export function parseRefs(snapshot: string): RefTable {
  const refs = new Map<string, string>();
  for (const line of snapshot.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, role = '', quotedName, ref = ''] = match;
    const name = quotedName === undefined ? '' : parseName(quotedName);
    const key = refKey(role, name);
    if (!refs.has(key)) refs.set(key, ref);
  }
  return refs;
}

function parseName(quoted: string): string {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : quoted;
  } catch {
    return quoted;
  }
}
