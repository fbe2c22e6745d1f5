import { describe, expect, it } from 'vitest'
import { eventually } from '../testing/panel-harness'
import { coldOpen } from '../testing/cold-open'

describe('the first read of a cold open', () => {
  it('starts when the panel opens, before its chunk is in; the panel waits for it and first appears with the thread, and does not read it again', async () => {
    const open = await coldOpen()
    await eventually(() => {
      if (open.loads.length < 2 || open.shadow.querySelector('[data-testid="panel-partial"]') != null) throw new Error('whole thread not shown yet')
    })
    // One windowed read, started before the panel was on screen; then the whole thread.
    expect(open.loads).toEqual([
      { windowed: true, panelShown: false },
      { windowed: false, panelShown: true },
    ])
    // No empty frame first: the body's first paint has the meter, and no loading state was ever rendered.
    expect(open.meterWithFirstPanel()).toBe(true)
    expect(open.loadingRendered()).toBe(false)
    open.unmount()
  })
})
