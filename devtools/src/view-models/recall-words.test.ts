import { entryFates } from '@threadlens/core/views'
import { describe, expect, it } from 'vitest'
import { recalledProjection } from '../testing/recall-fixture'
import { contextMap } from './context-blocks'
import { fateFilterOptions, fateMatches, seqMatches } from './fate-filter'
import { leftOut } from './left-out'
import { meterModel } from './meter-parts'
import { fieldChange, fieldChecked, policyFields } from './policy-fields'
import { recallComparison, recallDetail, recallSkipTexts, recallSummary } from './recall-words'
import { turnDiff } from './turn-diff'

describe('recall in words', () => {
  it('recalls the first turn for the last question, and says so in plain words', async () => {
    const { meta } = await recalledProjection()
    expect(meta.recall?.skipped).toBeUndefined()
    expect(meta.recall?.seqs).toContain(0)
    const fates = entryFates(meta)
    const hit = meta.recall?.hits[0]
    expect(hit).toBeDefined()
    const detail = recallDetail(fates.fateOf(hit?.seq ?? -1))
    expect(detail).toMatch(/^recalled: matched [a-z, ]*adoption[a-z, ]*agency/)
    expect(detail).toMatch(/\(score \d+\.\d\d\)$/)
    // An entry sent as it is has no recall detail.
    expect(recallDetail(fates.fateOf(meta.includedSeqs[meta.includedSeqs.length - 1] ?? -1))).toBeUndefined()
    const summary = recallSummary(meta)
    expect(summary?.status).toBe('sent')
    expect(summary?.text).toMatch(/^Recalled \d+ older entr(y|ies) \(\d+ of the [\d,]+ tokens kept for recall\): \d+ matched the newest user message/)
    expect(summary?.query).toContain('adoption')
  })

  it('says why recall was skipped, and nothing when the policy has no recall', async () => {
    const skipped = await recalledProjection({ index: false })
    expect(skipped.meta.recall?.skipped).toBe('no-index')
    expect(recallSummary(skipped.meta)).toMatchObject({
      status: 'skipped',
      reason: 'no-index',
      text: 'Recall skipped: no index was given to the projection, so there was nothing to search.',
    })
    const off = await recalledProjection({ recall: false })
    expect(recallSummary(off.meta)).toBeUndefined()
    for (const text of Object.values(recallSkipTexts)) expect(text).not.toMatch(/[A-Z_]|-/)
  })

  it('compares a policy with and without recall', async () => {
    const off = await recalledProjection({ recall: false })
    const on = await recalledProjection()
    expect(recallComparison(off.meta, off.meta)).toBeUndefined()
    expect(recallComparison(off.meta, on.meta)).toMatch(
      /^Recall: app policy: no recall · this policy: recalled \d+ older entr(y|ies) \(\d+ tokens\)$/,
    )
    // The entries recall brings in enter the request as recalled.
    const diff = turnDiff(off, on)
    const first = diff.changes.find((change) => change.seq === 0)
    expect(first).toMatchObject({ change: 'entered', after: 'recalled' })
  })
})

describe('recall in the meter, the context map, the filters and the left-out list', () => {
  it('gives recall its own meter part only under a policy that recalls', async () => {
    const on = await recalledProjection()
    const parts = meterModel(on.meta).parts
    expect(parts.map((part) => part.key)).toEqual(['system', 'memory', 'summary', 'history', 'recall', 'pending', 'tools', 'reserved', 'free'])
    const recall = parts.find((part) => part.key === 'recall')
    expect(recall).toMatchObject({ label: 'recalled entries', tokens: on.meta.tokens.recall })
    expect(on.meta.tokens.recall).toBeGreaterThan(0)
    const off = await recalledProjection({ recall: false })
    expect(meterModel(off.meta).parts.some((part) => part.key === 'recall')).toBe(false)
  })

  it('shows the recall block as its own part of the context map, between history and the free room', async () => {
    const result = await recalledProjection()
    const model = contextMap(result)
    const parts = model.groups.map((group) => group.part)
    expect(parts.indexOf('recall')).toBe(parts.indexOf('history') + 1)
    const group = model.groups.find((candidate) => candidate.part === 'recall')
    expect(group?.tokens).toBe(result.meta.tokens.recall)
    const block = group?.blocks.find((candidate) => candidate.positions.length === 1)
    expect(block?.label).toMatch(/^recalled: \d+ older entr(y|ies)$/)
    expect(block?.seqs).toEqual(result.meta.recall?.seqs)
  })

  it('filters recalled entries, counts them as sent, and keeps them out of the left-out list', async () => {
    const { meta } = await recalledProjection()
    expect(fateFilterOptions(meta).map((option) => option.value)).toContain('recalled')
    const seq = meta.recall?.seqs[0] ?? -1
    expect(seqMatches(meta, seq, 'recalled')).toBe(true)
    expect(seqMatches(meta, seq, 'sent')).toBe(true)
    expect(seqMatches(meta, seq, 'left-out')).toBe(false)
    expect(fateMatches({ state: 'included', reduced: undefined }, 'recalled')).toBe(false)
    const listed = leftOut(meta).flatMap((group) => group.ranges)
    for (const recalled of meta.recall?.seqs ?? []) expect(listed.some((range) => range.fromSeq <= recalled && recalled <= range.toSeq)).toBe(false)
    // A projection that recalled nothing offers no recalled filter.
    const off = await recalledProjection({ recall: false })
    expect(fateFilterOptions(off.meta).map((option) => option.value)).not.toContain('recalled')
  })

  it('lists summaries left unsent because their entries fit, as bookkeeping', () => {
    const base = { fromSeq: 0, toSeq: 0 }
    const groups = leftOut({
      dropped: [{ ...base, reason: 'unneeded' }],
      summary: undefined,
      includedSeqs: [],
      reduced: [],
      recall: undefined,
    } as never)
    expect(groups.map((group) => [group.reason, group.count])).toEqual([['unneeded', 1]])
  })
})

describe('the policy lab recall toggle', () => {
  it('turns recall on with its defaults and off again', () => {
    const field = policyFields.find((candidate) => candidate.name === 'recall')
    expect(field?.kind).toBe('toggle')
    if (field === undefined) return
    expect(fieldChange(field, true)).toEqual({ recall: {} })
    expect(fieldChange(field, false)).toEqual({ recall: undefined })
    expect(fieldChecked(field, undefined)).toBe(false)
    expect(fieldChecked(field, { share: 0.5 })).toBe(true)
  })
})

describe('recall before the panel has its index', () => {
  it('says the index is on its way rather than that none was given', async () => {
    const { meta } = await recalledProjection({ index: false })
    expect(recallSummary(meta, { indexPending: true })).toMatchObject({
      status: 'skipped',
      reason: 'no-index',
      text: 'Recall waits for its search index, which loads at the first click or key press on the page.',
    })
  })
})
