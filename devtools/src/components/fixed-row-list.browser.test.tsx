import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { LIST_OVERSCAN } from '../constants'
import { VirtualList } from './virtual-list'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const rowHeight = 20
const viewport = 200
// The panel's rule for lists: the list scrolls inside the space its parent gives it.
const style = document.createElement('style')
style.textContent = '.tl-scroll { flex: 1; min-height: 0; overflow: auto; contain: strict; }'
document.head.append(style)

let root: Root | undefined
let host: HTMLElement | undefined

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

function mount(): { render(node: ReactNode): void; list(): HTMLElement; shown(): number[] } {
  host = document.createElement('div')
  host.style.cssText = `display: flex; flex-direction: column; height: ${viewport}px; width: 300px`
  document.body.append(host)
  const created = createRoot(host)
  root = created
  const list = () => host?.querySelector('[role="list"]') as HTMLElement
  return {
    render: (node) => act(() => created.render(node)),
    list,
    shown: () => [...list().querySelectorAll('[data-row]')].map((row) => Number((row as HTMLElement).dataset['row'])),
  }
}

const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))))

describe('VirtualList with rows of one height', () => {
  it('puts only the rows in view in the DOM and renders only them, whatever the count, and follows appends at the end', async () => {
    const view = mount()
    let rendered = 0
    const list = (count: number) => (
      <VirtualList
        count={count}
        rowHeight={rowHeight}
        label="rows"
        followEnd
        rowKey={(row) => `r${row}`}
        renderRow={(row) => {
          rendered++
          return <span data-row={row}>row {row}</span>
        }}
      />
    )
    view.render(list(10_000))
    await nextFrame()
    const most = viewport / rowHeight + 1 + 2 * LIST_OVERSCAN
    expect(view.shown()).toContain(9999)
    expect(view.shown().length).toBeLessThanOrEqual(most)
    expect(view.list().scrollTop).toBe(10_000 * rowHeight - viewport)

    // An append renders the rows in view again (memoised rows skip their own work), never all 10,001.
    rendered = 0
    view.render(list(10_001))
    expect(rendered).toBeLessThanOrEqual(most)
    expect(view.shown()).toContain(10_000)
    expect(view.list().scrollTop).toBe(10_001 * rowHeight - viewport)
    await nextFrame()

    // Scrolled up by the user: appends leave the view where it is.
    view.list().scrollTop = 100 * rowHeight
    await act(async () => view.list().dispatchEvent(new Event('scroll')))
    expect(view.shown()).toContain(100)
    view.render(list(10_002))
    await nextFrame()
    expect(view.list().scrollTop).toBe(100 * rowHeight)
    expect(view.shown()).toContain(100)
    expect(view.shown()).not.toContain(10_001)

    // Back at the end: following again.
    view.list().scrollTop = 10_002 * rowHeight
    await act(async () => view.list().dispatchEvent(new Event('scroll')))
    view.render(list(10_003))
    await nextFrame()
    expect(view.shown()).toContain(10_002)
    expect(view.list().scrollTop).toBe(10_003 * rowHeight - viewport)
  })

  it('scrolled from the end straight to the top, shows the first rows (the offset it had before following was also 0)', async () => {
    const view = mount()
    view.render(<VirtualList count={800} rowHeight={rowHeight} label="rows" followEnd renderRow={(row) => <span data-row={row}>row {row}</span>} />)
    await nextFrame()
    expect(view.shown()).toContain(799)
    view.list().scrollTo({ top: 0 })
    await act(async () => view.list().dispatchEvent(new Event('scroll')))
    await nextFrame()
    expect(view.shown()).toContain(0)
    expect(view.shown()).not.toContain(799)
  })

  it('brings a row asked for into view, and stops following the end', async () => {
    const view = mount()
    const list = (count: number, scrollToRow?: number) => (
      <VirtualList
        count={count}
        rowHeight={rowHeight}
        label="rows"
        followEnd
        {...(scrollToRow === undefined ? {} : { scrollToRow })}
        renderRow={(row) => <span data-row={row}>row {row}</span>}
      />
    )
    view.render(list(5000))
    await nextFrame()
    view.render(list(5000, 42))
    await nextFrame()
    expect(view.shown()).toContain(42)
    view.render(list(5001, 42))
    await nextFrame()
    expect(view.shown()).toContain(42)
    expect(view.shown()).not.toContain(5000)
  })
})
