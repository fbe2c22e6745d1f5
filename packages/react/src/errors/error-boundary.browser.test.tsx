import { useState } from 'react'
import { flushSync } from 'react-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, type Rendered } from '../testing/render'
import { ThreadlensErrorBoundary } from './error-boundary'

let shouldThrow = true
function Fragile({ text = 'fine' }: { readonly text?: string }) {
  if (shouldThrow) throw new Error('<img src=x onerror=alert(1)> the bytes were not given')
  return <p data-testid="fragile">{text}</p>
}

function Host() {
  const [count, setCount] = useState(0)
  return (
    <div>
      <button type="button" data-testid="host-button" onClick={() => setCount(count + 1)}>
        clicked {count}
      </button>
      <ThreadlensErrorBoundary label="the Calls tab" resetKeys={[count]}>
        <Fragile />
      </ThreadlensErrorBoundary>
    </div>
  )
}

// Repeated on purpose: same teardown shape as devtools/src/panel/tab-failure.browser.test.tsx (each package's tests
// unmount their own render and reset their own failing part).
let rendered: Rendered | undefined
afterEach(() => {
  rendered?.unmount()
  rendered = undefined
  shouldThrow = true
  vi.restoreAllMocks()
})

const byTestId = (testId: string) => rendered?.container.querySelector<HTMLElement>(`[data-testid="${testId}"]`) ?? null

describe('ThreadlensErrorBoundary', () => {
  it('keeps the host running: the failing part says what failed as text, offers its details and a retry', async () => {
    // React reports a caught error on the console; the test is about what the page shows.
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    rendered = render(<Host />)
    const message = byTestId('threadlens-error-message')
    expect(message?.textContent).toBe('The Calls tab could not be shown: <img src=x onerror=alert(1)> the bytes were not given')
    // Text, never markup.
    expect(rendered.container.querySelector('img')).toBeNull()
    expect(byTestId('threadlens-error')?.getAttribute('role')).toBe('alert')
    expect(rendered.container.querySelector('pre')?.textContent).toContain('Components:')
    // The host still answers.
    flushSync(() => byTestId('host-button')?.click())
    expect(byTestId('host-button')?.textContent).toBe('clicked 1')
    // A changed reset key renders the children again; still failing, the fallback is back.
    expect(byTestId('threadlens-error')).not.toBeNull()
    shouldThrow = false
    flushSync(() => byTestId('threadlens-error-retry')?.click())
    expect(byTestId('fragile')?.textContent).toBe('fine')
  })

  it('copies the details, or opens them to be selected when the clipboard is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const written: string[] = []
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => void written.push(text))
    const errors: string[] = []
    rendered = render(
      <ThreadlensErrorBoundary onError={(_error, details) => errors.push(details)}>
        <Fragile />
      </ThreadlensErrorBoundary>,
    )
    expect(byTestId('threadlens-error-message')?.textContent).toMatch(/^This part of the page could not be shown: /)
    byTestId('threadlens-error-copy')?.click()
    await vi.waitFor(() => expect(byTestId('threadlens-error-copy')?.dataset['state']).toBe('copied'))
    expect(written[0]).toMatch(/^Error: <img src=x onerror=alert\(1\)> the bytes were not given\n/)
    expect(written[0]).toContain('Fragile')
    expect(errors).toEqual([written[0]])

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'))
    byTestId('threadlens-error-copy')?.click()
    await vi.waitFor(() => expect(byTestId('threadlens-error-copy')?.dataset['state']).toBe('failed'))
    expect(rendered.container.querySelector('details')?.open).toBe(true)
  })
})
