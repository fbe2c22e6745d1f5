import type { z } from 'zod/mini'
import { formatIssues, safeParse } from '@threadlens/core/internal'
import { InvalidStoreOptionsError } from './errors'

/** Validates public options with their zod schema; throws `InvalidStoreOptionsError` naming each bad option. */
export function parseOptions<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const parsed = safeParse(schema, value)
  if (parsed.success) return parsed.data
  throw new InvalidStoreOptionsError(what, formatIssues(parsed.error), { cause: parsed.error })
}
