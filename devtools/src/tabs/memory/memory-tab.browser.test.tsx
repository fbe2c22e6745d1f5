import { describe, expect, it } from 'vitest'
import { eventually, renderPanel } from '../../testing/panel-harness'

describe('Memory tab', () => {
  it('shows spaces with data and revs, live', async () => {
    const panel = await renderPanel({ tab: 'memory', agentId: 'agent-1' })
    await panel.stores.memory.tasks.add('agent-1', 'book <b>train</b>')
    const tasks = await eventually(() => {
      const element = panel.query('[data-testid="memory-space"][data-name="tasks"]')
      if (element === null || !element.textContent?.includes('book <b>train</b>')) throw new Error('not yet')
      return element
    })
    expect(tasks.dataset['rev']).toBe('1')
    await panel.stores.memory.world.put('agent-1', 'city', 'Kyoto')
    await eventually(() => expect(panel.query('[data-testid="memory-spaces"]')?.dataset['rev']).toBe('2'))
    expect(panel.query('[data-testid="memory-space"][data-name="world"]')?.textContent).toContain('"city": "Kyoto"')
    expect(panel.root.querySelectorAll('b').length).toBe(0)
    panel.unmount()
  })

  it('explains how to show memory when no agent is given', async () => {
    const panel = await renderPanel({ tab: 'memory' })
    expect((await panel.find('memory-none')).textContent).toContain('agentId')
    panel.unmount()
  })
})
