import { z } from '../zod.js';
import { groupOf, toolContracts } from './index.js';
import { projectPathSchema } from './project.js';

interface JsonSchemaProp {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

function typeOf(prop: JsonSchemaProp): string {
  if (prop.enum) return prop.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const t = Array.isArray(prop.type) ? prop.type.join(' \\| ') : (prop.type ?? 'any');
  const range =
    prop.minimum !== undefined || prop.maximum !== undefined
      ? ` (${prop.minimum ?? ''}..${prop.maximum ?? ''})`
      : '';
  return `${t}${range}`;
}

/** The tool reference in docs/tools.md, generated from the contracts so the two cannot drift. */
export function renderToolReference(): string {
  const out = [
    '# Tool reference',
    '',
    '<!-- Generated from protocol/src/tools by `pnpm docs:tools`; do not edit by hand. -->',
    '',
  ];
  for (const c of toolContracts) {
    const schema = z.toJSONSchema(c.input) as {
      properties?: Record<string, JsonSchemaProp>;
      required?: string[];
    };
    const hints = Object.entries(c.annotations)
      .filter(([, v]) => v === true)
      .map(([k]) => k.replace(/Hint$/, ''));
    out.push(
      `## ${c.name}`,
      '',
      `**${c.title}**${hints.length ? ` (${hints.join(', ')})` : ''}${
        groupOf(c) === 'core' ? '' : ` · opt-in group \`${groupOf(c)}\` (\`--caps ${groupOf(c)}\`)`
      }`,
      '',
      c.description,
      '',
    );
    const props = Object.entries(schema.properties ?? {});
    if (props.length === 0) {
      out.push('No parameters.', '');
      continue;
    }
    out.push('| parameter | type | required | description |', '| --- | --- | --- | --- |');
    for (const [name, prop] of props) {
      const required = schema.required?.includes(name) ? 'yes' : 'no';
      out.push(`| \`${name}\` | ${typeOf(prop)} | ${required} | ${prop.description ?? ''} |`);
    }
    out.push('');
  }
  out.push(
    '## `projectPath` (launch mode)',
    '',
    `When the server runs with \`--launch\` and neither MCP roots nor \`--project\` name the project, ${toolContracts
      .filter((c) => c.takesProjectPath === true)
      .map((c) => `\`${c.name}\``)
      .join(
        ', ',
      )} also take an optional \`projectPath\` (string): ${projectPathSchema.description ?? ''}. See [projects.md](projects.md).`,
    '',
  );
  return out.join('\n');
}
