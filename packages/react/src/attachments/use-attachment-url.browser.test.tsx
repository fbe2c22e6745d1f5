import { describe, expect, it, vi } from 'vitest'
import { eventually, render, settle } from '../testing/render'
import { useAttachmentURL } from './use-attachment-url'

function Shown({ id, load }: { readonly id: string | undefined; readonly load: (id: string) => Promise<Blob | undefined> }) {
  const url = useAttachmentURL(id, load)
  return <output>{url ?? 'none'}</output>
}

describe('useAttachmentURL', () => {
  it('gives an object URL for stored bytes, a new one for a new id, and revokes each when done', async () => {
    const blobs = new Map([
      ['a', new Blob(['first'], { type: 'text/plain' })],
      ['b', new Blob(['second'], { type: 'text/plain' })],
    ])
    const load = vi.fn(async (id: string) => blobs.get(id))
    const revoke = vi.spyOn(URL, 'revokeObjectURL')
    const view = render(<Shown id="a" load={load} />)
    const output = () => view.container.querySelector('output')?.textContent ?? ''
    await eventually(() => expect(output()).toMatch(/^blob:/))
    const first = output()
    expect(await (await fetch(first)).text()).toBe('first')

    view.rerender(<Shown id="b" load={load} />)
    await eventually(() => expect(output()).not.toBe(first))
    await eventually(() => expect(output()).toMatch(/^blob:/))
    expect(revoke).toHaveBeenCalledWith(first)
    const second = output()

    // Bytes that are not stored, and no id at all, show nothing (and fetch nothing for no id).
    view.rerender(<Shown id="missing" load={load} />)
    await settle()
    expect(output()).toBe('none')
    view.rerender(<Shown id={undefined} load={load} />)
    await settle()
    expect(load.mock.calls.map(([id]) => id)).toEqual(['a', 'b', 'missing'])
    expect(revoke).toHaveBeenCalledWith(second)
    view.unmount()
    revoke.mockRestore()
  })
})
