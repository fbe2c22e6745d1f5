// The development sync server (packages/sync/server): data on disk survives SIGKILL, the CLI's
// child process restarts on the same port and data dir, bad options get a typed error, and a
// browser at another origin passes the CORS preflight for every header the sync client uses.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSyncServer, startSyncServer, SyncServerError, type SpawnedSyncServer, type SyncServer } from '../server/sync-server'

const jsonHeaders = { 'Content-Type': 'application/json' }

async function readAll(streamUrl: string): Promise<unknown[]> {
  const response = await fetch(`${streamUrl}?offset=-1`)
  expect(response.status).toBe(200)
  return (await response.json()) as unknown[]
}

describe('spawnSyncServer', () => {
  let dataDir: string
  let server: SpawnedSyncServer | undefined

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'threadlens-sync-process-'))
  })
  afterAll(async () => {
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps appended data across SIGKILL and a restart on the same port and data dir', async () => {
    server = await spawnSyncServer({ port: 0, dataDir })
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const streamUrl = `${server.baseUrl}/threads/t1`
    expect((await fetch(streamUrl, { method: 'PUT', headers: jsonHeaders })).status).toBe(201)
    for (const n of [1, 2, 3]) {
      const appended = await fetch(streamUrl, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ n }) })
      expect(appended.status).toBe(204)
    }
    const firstPid = server.pid

    await server.kill('SIGKILL')
    expect(server.pid).toBeUndefined()
    await expect(fetch(streamUrl)).rejects.toThrow()

    await server.restart()
    expect(server.pid).not.toBe(firstPid)
    expect(await readAll(streamUrl)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    // The restarted server still takes appends after the recovered data.
    expect((await fetch(streamUrl, { method: 'POST', headers: jsonHeaders, body: '{"n":4}' })).status).toBe(204)
    expect(await readAll(streamUrl)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }])

    await server.stop()
    expect(server.pid).toBeUndefined()
  })

  it('rejects a port already in use with a typed error naming the cause', async () => {
    const holder = await startSyncServer({ port: 0 })
    try {
      const port = Number(new URL(holder.baseUrl).port)
      const attempt = spawnSyncServer({ port, dataDir: join(dataDir, 'second') })
      await expect(attempt).rejects.toSatisfy((error) => SyncServerError.isInstance(error) && error.code === 'exited')
      await expect(attempt).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await holder.stop()
    }
  })
})

describe('startSyncServer', () => {
  let server: SyncServer

  beforeAll(async () => {
    server = await startSyncServer({ port: 0 })
  })
  afterAll(async () => {
    await server.stop()
  })

  it('refuses options it cannot honour', async () => {
    const invalid = (error: unknown): boolean => SyncServerError.isInstance(error) && error.code === 'invalid-option'
    await expect(startSyncServer({ host: '0.0.0.0' })).rejects.toSatisfy(invalid)
    await expect(startSyncServer({ host: '127.0.0.256' })).rejects.toSatisfy(invalid)
    await expect(startSyncServer({ port: 70_000 })).rejects.toSatisfy(invalid)
    await expect(startSyncServer({ port: 1.5 })).rejects.toSatisfy(invalid)
    await expect(startSyncServer({ dataDir: ' ' })).rejects.toSatisfy(invalid)
    await expect(startSyncServer({ longPollTimeoutMs: 0 })).rejects.toSatisfy(invalid)
  })

  it('passes a cross-origin preflight for the headers the sync client sends and exposes the ones it reads', async () => {
    const sent = ['Content-Type', 'Authorization', 'Producer-Id', 'Producer-Epoch', 'Producer-Seq', 'Stream-Closed', 'If-None-Match']
    const preflight = await fetch(`${server.baseUrl}/threads/cors`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': sent.join(',').toLowerCase(),
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'HEAD']))
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(',').map((name) => name.trim().toLowerCase())
    expect(allowed).toEqual(expect.arrayContaining(sent.map((name) => name.toLowerCase())))

    const read = [
      'Stream-Next-Offset',
      'Stream-Up-To-Date',
      'Stream-Closed',
      'Producer-Epoch',
      'Producer-Seq',
      'Producer-Expected-Seq',
      'Producer-Received-Seq',
    ]
    const created = await fetch(`${server.baseUrl}/threads/cors`, { method: 'PUT', headers: { ...jsonHeaders, Origin: 'http://localhost:5173' } })
    expect(created.status).toBe(201)
    const exposed = (created.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase())
    expect(exposed).toEqual(expect.arrayContaining(read.map((name) => name.toLowerCase())))
  })
})
