/**
 * Imported first by cli.ts, before the MCP SDK builds its schemas: zod decides per schema, when it
 * is created, whether to compile a parser with `new Function` on first use. A stdio server parses
 * a handful of messages before tools/list; compiling those parsers cost about 5 ms of a spawn,
 * more than interpreting every message of a long session.
 */
import { z } from 'zod';

z.config({ jitless: true });
