// Writes docs/tools.md from the shared contracts (pnpm docs:tools). A unit test fails on drift.
import { writeFileSync } from 'node:fs';
import { renderToolReference } from '../protocol/dist/index.js';

writeFileSync(new URL('../docs/tools.md', import.meta.url), renderToolReference());
