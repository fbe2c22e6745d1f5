import type { Reader } from '@threadlens/core/internal'
import { describeFixtureFiles, oneIssueOutcome, readerOutcome, type FixtureCheck, type FixtureRun } from '@threadlens/core/testing/node'
import { describe, expect, it } from 'vitest'
import { databaseOptionsReader } from './backends/indexeddb/threadlens-db'
import { InvalidStoreOptionsError } from './errors'
import { parseOptions } from './parse-options'
import { sentinelRowReader, threadRowReader } from './rows'
import { forkOptionsReader } from './threads/fork-thread'
import { importOptionsReader } from './threads/import-thread'
import { changesReader, updateOptionsReader } from './threads/thread-record'
import { createOptionsReader } from './threads/thread-store-on-backend'
import { importLimitsReader } from './transfer/import-limits'
import { attachmentLineReader, headerReader } from './transfer/thread-file-schemas'

// Accept/reject fixtures of the store's readers (testing/fixtures/*.json), as core keeps for its own
// (see core's readers.fixtures.test.ts for the format). The cases were recorded from the zod schemas
// the store validated with before these readers: valid samples and seeded random damage to them
// (core's `mutate`), one case for every distinct first problem (field and rule) the damage caused;
// the readers agreed on all of them. A rule change is a change to the fixture: edit the case, or run
//   UPDATE_FIXTURES=1 node_modules/.bin/vitest run --project node packages/store/src/readers.fixtures.test.ts
// and review the diff of the JSON files.

/** Options, as the store functions check them: the first issue of the `InvalidStoreOptionsError`. */
function optionsOutcome(reader: Reader<unknown>): (value: unknown) => FixtureRun {
  return (value) =>
    oneIssueOutcome(
      (error) => InvalidStoreOptionsError.isInstance(error),
      () => parseOptions(reader, value, 'options'),
    )
}

// Repeated on purpose: packages/core/src/validation/readers.fixtures.test.ts has a table of the same shape (its own fixture files and readers).
const checks: readonly FixtureCheck[] = [
  { fixture: 'thread-rows', run: readerOutcome(threadRowReader) },
  { fixture: 'sentinel-rows', run: readerOutcome(sentinelRowReader) },
  { fixture: 'header-lines', run: readerOutcome(headerReader) },
  { fixture: 'attachment-lines', run: readerOutcome(attachmentLineReader) },
  { fixture: 'thread-changes', run: optionsOutcome(changesReader) },
  { fixture: 'create-options', run: optionsOutcome(createOptionsReader) },
  { fixture: 'fork-options', run: optionsOutcome(forkOptionsReader) },
  { fixture: 'update-options', run: optionsOutcome(updateOptionsReader) },
  { fixture: 'import-options', run: optionsOutcome(importOptionsReader) },
  { fixture: 'import-limits', run: optionsOutcome(importLimitsReader) },
  { fixture: 'database-options', run: optionsOutcome(databaseOptionsReader) },
]

describeFixtureFiles("the store's readers: the recorded accept/reject fixtures", new URL('./testing/fixtures/', import.meta.url), checks)

describe("the store's rules the fixtures cannot hold", () => {
  it('a record change: at most 100 tags, duplicates dropped; metadata within its byte limit', () => {
    const change = optionsOutcome(changesReader)
    expect(change({ tags: Array.from({ length: 101 }, (_, n) => `t${n}`) })).toEqual({
      ok: false,
      error: { path: 'tags', message: 'Too big: expected array to have <=100 items' },
    })
    expect(change({ tags: ['b', 'a', 'b', 'c', 'a'] })).toEqual({ ok: true, value: { tags: ['b', 'a', 'c'] } })
    expect(change({ metadata: { big: 'x'.repeat(1024 * 1024) } })).toEqual({
      ok: false,
      error: { path: 'metadata', message: "metadata is limited to 1048576 bytes of JSON (it is written on the export's first line)" },
    })
  })
})
