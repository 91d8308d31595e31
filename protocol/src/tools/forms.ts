/** Forms area: fill many fields at once, select options, upload files. */
import { z } from '../zod.js';
import { defineTool } from './contract.js';
import { elementTarget } from './target.js';

const formField = z.object({
  ...elementTarget,
  value: z
    .union([z.string().max(100_000), z.boolean()])
    .describe('Text, option, or true/false to check'),
});

export const fillForm = defineTool({
  name: 'browser_fill_form',
  title: 'Fill form',
  description: 'Set many fields at once: text, checkbox, radio, select.',
  input: z.object({
    fields: z.array(formField).min(1).max(100).describe('Fields to set, in order'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  secretArgs: ['fields[].value'],
});

export const selectOption = defineTool({
  name: 'browser_select_option',
  askVerb: 'choose',
  title: 'Select option',
  description: 'Select options of a <select>.',
  input: z.object({
    ...elementTarget,
    values: z.array(z.string().max(1000)).min(1).max(100).describe('Option labels or values'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  typedArgs: ['values'],
});

export const fileUpload = defineTool({
  name: 'browser_file_upload',
  askVerb: 'upload files to',
  title: 'Upload files',
  description: 'Set the files of a file input, or without a target of the open file chooser.',
  input: z.object({
    ...elementTarget,
    paths: z
      .array(z.string().max(4096))
      .max(20)
      .optional()
      .describe('Paths (relative: first root); [] clears, none cancels'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  serverStep: 'checkUploadFiles',
});

export const drop = defineTool({
  name: 'browser_drop',
  title: 'Drop files or data',
  description: 'Drop files and/or data on an element, as if dragged in from outside the page.',
  input: z.object({
    ...elementTarget,
    paths: z
      .array(z.string().max(4096))
      .max(20)
      .optional()
      .describe('Paths (relative: first root)'),
    data: z
      .record(z.string().max(200), z.string().max(1_000_000))
      .optional()
      .describe('MIME type to text, e.g. {"text/plain": "hi"}'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  group: 'testing',
  serverStep: 'checkUploadFiles',
});

/** The forms area's tools, in the order tools/list shows them. */
export const formsContracts = [fillForm, selectOption, fileUpload, drop] as const;
