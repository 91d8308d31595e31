/**
 * Rolldown plugin: the SDK's Server module imports its ajv-based validator eagerly, and ajv with
 * its formats is a third of the bundle Node compiles and runs on every spawn (about 20 ms of CPU
 * on the bench machine) for a feature this server does not use. This swaps in
 * noJsonSchemaValidator.ts. If a later SDK moves the file, nothing matches and the bundle simply
 * keeps ajv.
 */
import path from 'node:path';
import type { Plugin } from 'rolldown';

const SDK_VALIDATOR = /@modelcontextprotocol[/+]sdk.*[/]validation[/]ajv-provider\.js$/;
const STANDIN = path.join(import.meta.dirname, 'noJsonSchemaValidator.ts');

export function withoutAjv(): Plugin {
  return {
    name: 'browser-agent:without-ajv',
    async resolveId(source, importer, options) {
      if (!source.endsWith('ajv-provider.js') || importer === undefined) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved !== null && SDK_VALIDATOR.test(resolved.id) ? STANDIN : null;
    },
  };
}
