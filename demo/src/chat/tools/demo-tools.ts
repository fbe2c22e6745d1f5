import { defineTool, type Tool } from '@threadlens/agent'
import type { MemoryStore } from '@threadlens/store'
import { z } from 'zod/mini'
import { evaluateArithmetic, roundResult } from './arithmetic'
import { documentText, DOCUMENT_LINES } from './documents'
import { noteKey } from './note-key'
import { convertUnits } from './units'

export const calculatorTool = defineTool({
  name: 'calculator',
  description: 'Evaluates an arithmetic expression: numbers, + - * / % ^, parentheses, pi, e, sqrt abs round floor ceil ln log min max.',
  parameters: z.object({ expression: z.string().check(z.minLength(1), z.maxLength(500), z.describe('e.g. "(12.5 + 7) * 3 / 2"')) }),
  idempotent: true,
  execute: ({ expression }) => ({ expression, result: roundResult(evaluateArithmetic(expression)) }),
})

export const convertUnitsTool = defineTool({
  name: 'convert_units',
  description: 'Converts a value between units of length (mm cm m km in ft yd mi), mass (mg g kg t oz lb st) or temperature (C F K).',
  parameters: z.object({
    value: z.number().check(z.describe('the amount to convert')),
    from: z.string().check(z.minLength(1), z.maxLength(40), z.describe('unit of the value, e.g. "km"')),
    to: z.string().check(z.minLength(1), z.maxLength(40), z.describe('unit wanted, e.g. "mi"')),
  }),
  idempotent: true,
  execute: ({ value, from, to }) => ({ ...convertUnits(value, from, to) }),
})

export const readDocumentTool = defineTool({
  name: 'read_document',
  description: `Reads a document by name and returns its full text (about ${DOCUMENT_LINES} lines).`,
  parameters: z.object({
    name: z.string().check(z.minLength(1), z.maxLength(200), z.describe('the document, e.g. "quarterly report"')),
    lines: z.optional(z.int().check(z.gte(1), z.lte(20_000))).check(z.describe(`length in lines; default ${DOCUMENT_LINES}`)),
  }),
  idempotent: true,
  execute: ({ name, lines }) => documentText(name, lines ?? DOCUMENT_LINES),
})

/** `save_note` writes to the `world` space of `memoryId`; the session renders it into every call's memory segment. */
export function saveNoteTool(memory: MemoryStore, memoryId: string): Tool<{ text: string; key?: string | undefined }> {
  return defineTool({
    name: 'save_note',
    description: 'Saves a note to long-term memory (shown to you in every later call), e.g. what the user asked you to remember.',
    parameters: z.object({
      text: z.string().check(z.minLength(1), z.maxLength(2000), z.describe('the note')),
      key: z.optional(z.string().check(z.regex(/^[a-z0-9-]{1,40}$/))).check(z.describe('short kebab-case name; default: from the first words')),
    }),
    // Writing the same key twice leaves the same memory: safe to run again after a reload.
    idempotent: true,
    async execute({ text, key }) {
      const name = key ?? noteKey(text)
      const updated = await memory.world.put(memoryId, name, text)
      return { saved: name, text, notes: Object.keys(updated.spaces.world.data).length, memoryRev: updated.rev }
    },
  })
}

/** Every tool of the demo, over the memory store `save_note` writes to. */
export function demoTools(memory: MemoryStore, memoryId: string): readonly Tool<unknown>[] {
  return [calculatorTool, convertUnitsTool, saveNoteTool(memory, memoryId), readDocumentTool] as readonly Tool<unknown>[]
}
