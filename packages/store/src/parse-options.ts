import type { z } from 'zod'
import { InvalidStoreOptionsError } from './errors'

/** Validates public options with their zod schema; throws `InvalidStoreOptionsError` naming each bad option. */
export function parseOptions<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new InvalidStoreOptionsError(
    what,
    parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    { cause: parsed.error },
  )
}
