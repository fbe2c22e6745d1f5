import { describe, expect, it } from 'vitest'
import { FIRST_READ_WAIT_MS } from '../constants'
import { eventually } from '../testing/panel-harness'
import { coldOpen } from '../testing/cold-open'

describe('a cold open whose first read is slow', () => {
  it(`shows the panel without it after ${FIRST_READ_WAIT_MS} ms, then the same read's newest entries, then the whole thread`, async () => {
    const open = await coldOpen({ holdWindowedLoad: true })
    await eventually(() => {
      if (open.meterWithFirstPanel() === undefined) throw new Error('panel not shown yet')
    })
    // The panel came up with its controls before the read was in.
    expect(open.meterWithFirstPanel()).toBe(false)
    expect(open.loadingRendered()).toBe(true)
    expect(open.shadow.querySelector('[data-testid="devtools-close"]')).not.toBeNull()
    open.release()
    await eventually(() => {
      if (open.loads.length < 2 || open.shadow.querySelector('[data-testid="panel-partial"]') != null) throw new Error('whole thread not shown yet')
    })
    // The read started at the click is the one the panel used.
    expect(open.loads).toEqual([
      { windowed: true, panelShown: false },
      { windowed: false, panelShown: true },
    ])
    open.unmount()
  })
})
