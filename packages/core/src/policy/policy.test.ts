import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { InvalidPolicyError, ThreadlensError } from '../errors/threadlens-error'
import { definePolicy, inputBudget, withPolicy } from './policy'
import type { PolicyFields } from './policy-options'
import { presets } from './presets'

// Every option name, once: the compiler checks this names each field of PolicyFields and no other.
const optionNames = Object.keys({
  maxInputTokens: true,
  reserveOutputTokens: true,
  maxMessages: true,
  maxTurns: true,
  keepLastTurns: true,
  includeKinds: true,
  summaryRole: true,
  summaryPrefix: true,
  systemPrompt: true,
  unresolvedToolCalls: true,
  interruptedResultText: true,
  summarizeAtRatio: true,
  toolTrace: true,
  dedupeToolResults: true,
  pruneToolOutputsOverTokens: true,
  pruneKeepLines: true,
  pruneKeepBytes: true,
  cacheFriendly: true,
  cacheLowWaterRatio: true,
  cache: true,
  toolOutputMaxBytes: true,
  toolOutputMaxLines: true,
  toolOutputKeep: true,
  keepImagesTurns: true,
  recall: true,
  memorySpaces: true,
  memoryMaxTokens: true,
  tokenizer: true,
  model: true,
  name: true,
} satisfies Record<keyof PolicyFields, true>)

describe('definePolicy', () => {
  it('fills every default and freezes the result', () => {
    const policy = definePolicy()
    expect(policy.maxInputTokens).toBe(8192)
    expect(policy.reserveOutputTokens).toBe(1024)
    expect(policy.includeKinds).toEqual(['message', 'tool_call', 'tool_result', 'summary'])
    expect(policy.unresolvedToolCalls).toBe('interrupt')
    expect(inputBudget(policy)).toBe(7168)
    expect(Object.isFrozen(policy)).toBe(true)
    expect(Object.isFrozen(policy.includeKinds)).toBe(true)
  })

  it('rejects bad options with a readable, typed error naming each option', () => {
    const attempts: [unknown, string][] = [
      [{ maxInputTokens: -5 }, 'maxInputTokens'],
      [{ maxInputTokens: 1000, reserveOutputTokens: 1000 }, 'reserveOutputTokens: must be less than maxInputTokens'],
      [{ unresolvedToolCalls: 'ignore' }, 'unresolvedToolCalls'],
      [{ includeKinds: ['message', 'note'] }, 'includeKinds.1'],
      [{ maxTurns: 1.5 }, 'maxTurns'],
      [{ budget: 100 }, 'budget'],
      [{ summarizeAtRatio: 0 }, 'summarizeAtRatio'],
    ]
    for (const [options, expected] of attempts) {
      let caught: unknown
      try {
        definePolicy(options as never)
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(InvalidPolicyError)
      expect(ThreadlensError.isInstance(caught)).toBe(true)
      expect((caught as Error).message).toContain(expected)
    }
  })

  it('withPolicy changes options and validates again', () => {
    const base = definePolicy({ maxInputTokens: 4000 })
    expect(withPolicy(base, { maxTurns: 3 }).maxTurns).toBe(3)
    expect(() => withPolicy(base, { reserveOutputTokens: 4000 })).toThrow(InvalidPolicyError)
  })

  it('presets are valid, named, and take overrides', () => {
    expect(presets.shortContext().name).toBe('short')
    expect(presets.longContext().maxInputTokens).toBe(128_000)
    expect(presets.toolFocused({ systemPrompt: 'Use tools.' }).systemPrompt).toBe('Use tools.')
    for (const make of Object.values(presets)) expect(inputBudget(make())).toBeGreaterThan(0)
  })

  it('the README options table lists every option with its actual default', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8')
    const table = readme.slice(readme.indexOf('<!-- policy-options -->'))
    const rows = new Map<string, string>()
    for (const line of table.split('\n').slice(3)) {
      if (!line.startsWith('| `')) break
      const [name, defaultText] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim())
      rows.set((name as string).replaceAll('`', ''), (defaultText as string).replaceAll('`', ''))
    }
    expect([...rows.keys()].sort()).toEqual(optionNames.sort())
    const defaults = definePolicy() as Record<string, unknown>
    for (const [name, defaultText] of rows) {
      const value = defaults[name]
      if (value === undefined || (Array.isArray(value) && value.length === 0)) expect(['none', 'no limit']).toContain(defaultText)
      else if (name === 'includeKinds') expect(defaultText).toBe('all but context_op')
      else if (typeof value === 'object') expect(defaultText).toBe(JSON.stringify(value))
      else expect(defaultText).toBe(String(value).replaceAll('\n', '\\n'))
    }
  })
})
