/**
 * The MCP Bundle's texts are read by Claude Desktop users, who have the bundle and nothing else:
 * no `browser-agent-mcp` command on their PATH, no npx package (#28).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(
  readFileSync(new URL('../../../packaging/mcpb/manifest.json', import.meta.url), 'utf8'),
) as unknown;

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('the MCP Bundle manifest', () => {
  it('names no command a bundle user does not have', () => {
    const texts = strings(manifest).filter((t) => t.includes(' '));
    expect(texts.length).toBeGreaterThan(3);
    const offenders = texts.filter((t) => /`browser-agent-mcp\b|\bnpx\b|npm install/.test(t));
    expect(offenders).toEqual([]);
  });
});
