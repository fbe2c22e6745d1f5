import { describe, expect, it } from 'vitest'
import { checkSyncServer } from './start-demo-sync'
import { DEFAULT_SYNC_SERVER } from './use-demo-sync'

describe('checkSyncServer', () => {
  it('takes http and https addresses, the default among them', () => {
    expect(checkSyncServer(DEFAULT_SYNC_SERVER).origin).toBe('http://127.0.0.1:4437')
    expect(checkSyncServer(' https://streams.example.com/v1/ ').href).toBe('https://streams.example.com/v1/')
  })

  it('refuses what is not a URL, another scheme, and credentials in the URL, saying why', () => {
    expect(() => checkSyncServer('localhost 4437')).toThrow(/is not a URL/)
    expect(() => checkSyncServer('javascript:alert(1)')).toThrow(/must be http or https/)
    expect(() => checkSyncServer('http://user:secret@127.0.0.1:4437')).toThrow(/no credentials/)
  })
})
