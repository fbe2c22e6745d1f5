import type { ToolSchema } from '@threadlens/core'
import { DOCUMENT_LINES } from './documents'

/**
 * What the demo's tools send to the model, written out so the first screen (the meter, the
 * devtools) can project with them before the tools themselves — `@threadlens/agent` and zod's
 * JSON Schema conversion — have loaded. `demo-tool-schemas.test.ts` keeps this equal, key order
 * included, to what `demoTools` derives from its zod parameters.
 */
export const demoToolSchemas: readonly ToolSchema[] = [
  {
    name: 'calculator',
    description: 'Evaluates an arithmetic expression: numbers, + - * / % ^, parentheses, pi, e, sqrt abs round floor ceil ln log min max.',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', minLength: 1, maxLength: 500, description: 'e.g. "(12.5 + 7) * 3 / 2"' } },
      required: ['expression'],
      additionalProperties: false,
    },
  },
  {
    name: 'convert_units',
    description: 'Converts a value between units of length (mm cm m km in ft yd mi), mass (mg g kg t oz lb st) or temperature (C F K).',
    parameters: {
      type: 'object',
      properties: {
        value: { type: 'number', description: 'the amount to convert' },
        from: { type: 'string', minLength: 1, maxLength: 40, description: 'unit of the value, e.g. "km"' },
        to: { type: 'string', minLength: 1, maxLength: 40, description: 'unit wanted, e.g. "mi"' },
      },
      required: ['value', 'from', 'to'],
      additionalProperties: false,
    },
  },
  {
    name: 'save_note',
    description: 'Saves a note to long-term memory (shown to you in every later call), e.g. what the user asked you to remember.',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 2000, description: 'the note' },
        key: { description: 'short kebab-case name; default: from the first words', type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
      },
      required: ['text'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_document',
    description: `Reads a document by name and returns its full text (about ${DOCUMENT_LINES} lines).`,
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200, description: 'the document, e.g. "quarterly report"' },
        lines: { description: `length in lines; default ${DOCUMENT_LINES}`, type: 'integer', minimum: 1, maximum: 20_000 },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
]
