import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('README app quick start, in a real browser', () => {
  it('stores the chat in IndexedDB, streams the reply, and shows the devtools over the live session', async () => {
    document.body.innerHTML = '<div id="root"></div>'
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((text: unknown) => {
      printed.push(String(text))
    })
    const errors: unknown[] = []
    vi.spyOn(console, 'error').mockImplementation((error: unknown) => {
      errors.push(error)
    })
    await import('./app-quick-start')
    expect(errors).toEqual([])
    expect(printed.join('')).toBe('I see 1 message(s).')
    // The devtools render into a shadow root inside #root.
    await vi.waitFor(() => expect(document.querySelector('#root')?.children.length).toBeGreaterThan(0))
    const databases = await indexedDB.databases()
    expect(databases.map((database) => database.name)).toContain('quick-start')
  })
})
