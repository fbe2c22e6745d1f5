import { customTokenCounter, definePolicy, type ProjectionResult, type TokenCounter } from '@threadlens/core'
import { createMemoryBackedStores } from '@threadlens/store'
import { useState } from 'react'
import { flushSync } from 'react-dom'
import { describe, expect, it } from 'vitest'
import { createThreadlensClient } from '@threadlens/client'
import { eventually, renderWithClient, settle } from '../testing/render'
import { useProjection } from './use-projection'

describe('useProjection', () => {
  it('memoises by thread version + policy: no re-render and the same result object without a change', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    const other = await stores.threads.create()
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'Plan a weekend in Oslo.' } })
    const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory })
    const results: (ProjectionResult | undefined)[] = []
    let probeRenders = 0
    let bumpParent: () => void = () => {}

    function Probe() {
      probeRenders++
      // A policy rebuilt on every render: equal by value, so it must hit the cache.
      const policy = definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 500, tokenizer: 'heuristic' })
      const result = useProjection(record.id, policy, undefined, (snapshot) => snapshot.result)
      results.push(result)
      return <output>{result === undefined ? 'loading' : result.meta.tokens.total}</output>
    }
    function Parent() {
      const [count, setCount] = useState(0)
      bumpParent = () => flushSync(() => setCount((value) => value + 1))
      return (
        <div data-count={count}>
          <Probe />
        </div>
      )
    }

    const view = renderWithClient(client, <Parent />)
    const output = view.output
    await eventually(() => expect(output.textContent).not.toBe('loading'))
    await settle()
    const rendersWhenReady = probeRenders
    const first = results[results.length - 1]
    expect(first).toBeDefined()

    // Writes elsewhere (another thread, memory) do not render the probe.
    await stores.threads.append(other.id, { kind: 'message', payload: { role: 'user', content: 'elsewhere' } })
    await stores.memory.world.put('agent', 'city', 'Oslo')
    await settle()
    expect(probeRenders).toBe(rendersWhenReady)

    // The parent re-renders the probe: the projection is the same object (not recomputed).
    bumpParent()
    expect(probeRenders).toBe(rendersWhenReady + 1)
    expect(results[results.length - 1]).toBe(first)

    // An append is a new version: a new projection that includes it.
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'assistant', content: 'Pack a raincoat.' } })
    await eventually(() => expect(results[results.length - 1]).not.toBe(first))
    const second = results[results.length - 1] as ProjectionResult
    expect(second.meta.includedSeqs).toEqual([0, 1])
    expect(second.meta.tokens.total).toBeGreaterThan((first as ProjectionResult).meta.tokens.total)
    view.unmount()
  })

  it('counts with the estimate while the counter promise is pending, then projects again with the counter', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    await stores.threads.append(record.id, {
      kind: 'message',
      payload: { role: 'user', content: 'Plan a weekend in Oslo, with a museum on Saturday.' },
    })
    const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory })
    let resolve: (counter: TokenCounter) => void = () => {}
    const pending = new Promise<TokenCounter>((done) => {
      resolve = done
    })
    const policy = definePolicy({ maxInputTokens: 4000, reserveOutputTokens: 500 })
    const seen: (ProjectionResult | undefined)[] = []
    function Probe() {
      const result = useProjection(record.id, policy, { counter: pending }, (snapshot) => snapshot.result)
      seen.push(result)
      return <output>{result === undefined ? 'loading' : `${result.meta.counter.id} ${result.meta.tokens.estimated}`}</output>
    }
    const view = renderWithClient(client, <Probe />)
    const output = view.output
    // Nothing waits for the counter: the first projection is the estimate's.
    await eventually(() => expect(output.textContent).toBe('o200k_base~estimate true'))
    const words = customTokenCounter('words', (text) => text.split(' ').length, true)
    resolve(words)
    await eventually(() => expect(output.textContent).toBe('words false'))
    const estimated = seen.find((result) => result?.meta.tokens.estimated === true) as ProjectionResult
    const exact = seen[seen.length - 1] as ProjectionResult
    expect(estimated.meta.tokens.total).toBeGreaterThan(exact.meta.tokens.total)
    view.unmount()
  })

  it('switching the policy projects again, and switching back returns the cached result', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    for (let turn = 0; turn < 20; turn++) {
      await stores.threads.appendMany(record.id, [
        { kind: 'message', payload: { role: 'user', content: `question ${turn} ${'words '.repeat(40)}` } },
        { kind: 'message', payload: { role: 'assistant', content: `answer ${turn} ${'words '.repeat(40)}` } },
      ])
    }
    const client = createThreadlensClient({ threads: stores.threads })
    const wide = definePolicy({ maxInputTokens: 100_000, reserveOutputTokens: 1000, tokenizer: 'heuristic' })
    const narrow = definePolicy({ maxInputTokens: 600, reserveOutputTokens: 100, tokenizer: 'heuristic' })
    const seen: (ProjectionResult | undefined)[] = []
    function Probe({ policy }: { policy: typeof wide }) {
      const result = useProjection(record.id, policy, undefined, (snapshot) => snapshot.result)
      seen.push(result)
      return <output>{result?.meta.includedSeqs.length ?? 'loading'}</output>
    }
    const view = renderWithClient(client, <Probe policy={wide} />)
    const output = view.output
    await eventually(() => expect(output.textContent).toBe('40'))
    const wideResult = seen[seen.length - 1]
    view.rerender(<Probe policy={narrow} />)
    const narrowCount = Number(output.textContent)
    expect(narrowCount).toBeGreaterThan(0)
    expect(narrowCount).toBeLessThan(40)
    view.rerender(<Probe policy={wide} />)
    expect(seen[seen.length - 1]).toBe(wideResult)
    // The preview wrote nothing.
    expect((await stores.threads.get(record.id))?.entryCount).toBe(40)
    view.unmount()
  })

  it('settles on one error snapshot when the thread is deleted (no render loop)', async () => {
    const stores = createMemoryBackedStores()
    const record = await stores.threads.create()
    await stores.threads.append(record.id, { kind: 'message', payload: { role: 'user', content: 'hi' } })
    const client = createThreadlensClient({ threads: stores.threads, memory: stores.memory })
    let renders = 0
    function Probe() {
      renders++
      // The whole snapshot, as the devtools select it: a new object on every read would never settle.
      const snapshot = useProjection(record.id, definePolicy({ tokenizer: 'heuristic' }), undefined, (value) => value)
      return <output>{snapshot.status}</output>
    }
    const view = renderWithClient(client, <Probe />)
    const output = view.output
    await eventually(() => expect(output.textContent).toBe('ready'))
    await stores.threads.delete(record.id)
    await eventually(() => expect(output.textContent).toBe('error'))
    await settle()
    const settled = renders
    await settle()
    expect(renders).toBe(settled)
    expect(renders).toBeLessThan(20)
    view.unmount()
  })
})
