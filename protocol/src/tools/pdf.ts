/** PDF area: the page saved as a PDF file (`--caps pdf`). */
import { z } from '../zod.js';
import { defineTool } from './contract.js';

export const pdfSave = defineTool({
  name: 'browser_pdf_save',
  title: 'Save as PDF',
  description:
    'Saves the current page as a PDF in the output directory (page-<time>.pdf unless filename is given).',
  input: z.object({
    filename: z.string().max(500).optional().describe('File name (new; in outputDir)'),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  group: 'pdf',
  serverStep: 'saveResultBytes',
});

/** The PDF area's tools, in the order tools/list shows them. */
export const pdfContracts = [pdfSave] as const;
