#!/usr/bin/env node
// Thin launcher so the bin link exists before the first build; the code lives in dist/.
import '../dist/cli.js';
