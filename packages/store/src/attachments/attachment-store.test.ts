import 'fake-indexeddb/auto'
import { project, definePolicy, customTokenCounter, toAnthropicMessages, toOpenAIChat, type Entry } from '@threadlens/core'
import { partsText, type ContentPart } from '@threadlens/core/parts'
import { heuristicCount } from '@threadlens/core/internal'
import { describe, expect, it } from 'vitest'
import { createThreadStore } from '../backends/indexeddb/create-thread-store'
import { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
import { schemaV3, schemaVersion } from '../backends/indexeddb/schema'
import { ImportValidationError, InvalidAttachmentError } from '../errors'
import { uniqueName } from '../testing/test-database'
import { upgradeFrom } from '../testing/older-database'
import { createMemoryBackedStores } from '../backends/in-memory/create-in-memory-stores'
import { filePart, imagePart } from './attachment-store'
import { createAttachmentStore } from '../backends/indexeddb/create-attachment-store'

// A 1×1 PNG, and a small PDF-ish file: real bytes, hashed for real.
const pngBytes = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
)
const png = () => new Blob([pngBytes], { type: 'image/png' })
const pdf = () => new Blob(['%PDF-1.4 tiny'], { type: 'application/pdf' })

function open(label: string) {
  const db = new ThreadlensDB({ name: uniqueName(label) })
  return { db, threads: createThreadStore(db), attachments: createAttachmentStore(db) }
}

function userWith(parts: ContentPart[]) {
  return { kind: 'message', payload: { role: 'user', content: partsText(parts), parts } } as const
}

describe('attachment store', () => {
  it('keeps the same bytes once, content-addressed, and hands back a reference entries can use', async () => {
    const { db, threads, attachments } = open('attachments-dedupe')
    const a = await threads.create()
    const b = await threads.create()
    const first = await attachments.put(a.id, png(), { width: 1, height: 1 })
    const again = await attachments.put(b.id, png())
    expect(first).toEqual({ id: expect.stringMatching(/^sha256-[0-9a-f]{64}$/), mediaType: 'image/png', bytes: pngBytes.length, width: 1, height: 1 })
    expect(again.id).toBe(first.id)
    expect(await db.attachments.count()).toBe(1)
    expect(new Uint8Array(await ((await attachments.get(first.id)) as Blob).arrayBuffer())).toEqual(pngBytes)
    await threads.append(a.id, userWith([{ type: 'text', text: 'What is this?' }, imagePart(first, 'low')]))
    expect((await threads.load(a.id)).entries[0]?.payload).toMatchObject({
      parts: [{ type: 'text' }, { type: 'image', source: { type: 'attachment', id: first.id }, detail: 'low', width: 1, height: 1 }],
    })
    db.close()
  })

  it('refuses what it cannot keep, saying why', async () => {
    const { db, threads, attachments } = open('attachments-refuse')
    const { id } = await threads.create()
    await expect(attachments.put(id, new Blob(['x']))).rejects.toThrow(InvalidAttachmentError)
    await expect(attachments.put(id, png(), { width: -1 })).rejects.toThrow(/width/)
    await expect(attachments.put('no-such-thread', png())).rejects.toThrow(/No thread/)
    db.close()
  })

  it('deletes the bytes with the last thread that uses them; a fork keeps its parent’s', async () => {
    const { db, threads, attachments } = open('attachments-delete')
    const a = await threads.create()
    const image = await attachments.put(a.id, png())
    const file = await attachments.put(a.id, pdf())
    await threads.append(a.id, userWith([imagePart(image), filePart(file, 'a.pdf')]))
    const fork = await threads.fork(a.id, { atSeq: 0 })
    const other = await threads.create()
    await attachments.put(other.id, png())
    await threads.delete(a.id)
    // The fork uses both; another thread the image.
    expect((await attachments.listForThread(fork.id)).map((info) => info.id).sort()).toEqual([image.id, file.id].sort())
    await threads.delete(fork.id)
    expect(await attachments.get(file.id)).toBeUndefined()
    expect(await attachments.get(image.id)).toBeInstanceOf(Blob)
    await threads.delete(other.id)
    expect(await db.attachments.count()).toBe(0)
    expect(await db.attachmentRefs.count()).toBe(0)
    db.close()
  })

  it('exports a thread with its attachments and imports it back identical', async () => {
    const { db, threads, attachments } = open('attachments-transfer')
    const { id } = await threads.create({ title: 'pictures' })
    const image = await attachments.put(id, png(), { width: 1, height: 1 })
    const file = await attachments.put(id, pdf())
    await threads.append(id, userWith([{ type: 'text', text: 'Look' }, imagePart(image), filePart(file, 'a.pdf', 1)]))
    await threads.append(id, { kind: 'message', payload: { role: 'assistant', content: 'A pixel and a PDF.' } })
    const exported = await threads.export(id)
    const lines = exported.trimEnd().split('\n')
    expect(JSON.parse(lines[0] as string)).toMatchObject({ entryCount: 2, attachmentCount: 2 })
    expect(
      lines
        .slice(3)
        .map((line) => (JSON.parse(line) as { attachment: { id: string } }).attachment.id)
        .sort(),
    ).toEqual([image.id, file.id].sort())

    const { threadId: copy } = await threads.import(exported)
    const strip = (entries: readonly Entry[]) => entries.map(({ payload, kind, refs, createdAt }) => ({ payload, kind, refs, createdAt }))
    expect(strip((await threads.load(copy)).entries)).toEqual(strip((await threads.load(id)).entries))
    // The copy holds the bytes too: deleting the original keeps them.
    await threads.delete(id)
    expect(new Uint8Array(await ((await attachments.get(image.id)) as Blob).arrayBuffer())).toEqual(pngBytes)
    // Export → import → export gives the same attachment lines.
    const again = (await threads.export(copy)).trimEnd().split('\n')
    expect(again.slice(3)).toEqual(lines.slice(3))
    db.close()
  })

  it('refuses an import whose attachment bytes do not match their id, or that lacks them', async () => {
    const { db, threads, attachments } = open('attachments-tampered')
    const { id } = await threads.create()
    const image = await attachments.put(id, png())
    await threads.append(id, userWith([imagePart(image)]))
    const lines = (await threads.export(id)).trimEnd().split('\n')
    const attachmentLine = JSON.parse(lines[2] as string) as { attachment: { data: string } }
    attachmentLine.attachment.data = btoa('not the png')
    const tampered = [lines[0], lines[1], JSON.stringify({ attachment: { ...attachmentLine.attachment, bytes: 11 } })].join('\n')
    await expect(threads.import(tampered)).rejects.toMatchObject({ line: 3, field: 'attachment.id' })
    const header = JSON.parse(lines[0] as string) as Record<string, unknown>
    delete header['attachmentCount']
    const missing = [JSON.stringify(header), lines[1]].join('\n')
    const error = await threads.import(missing).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ImportValidationError)
    expect(error).toMatchObject({ line: 2, field: 'payload.parts' })
    expect((await threads.list()).length).toBe(1)
    db.close()
  })

  it('gives the formats the bytes a projection sends', async () => {
    const { db, threads, attachments } = open('attachments-project')
    const { id } = await threads.create()
    const image = await attachments.put(id, png(), { width: 1, height: 1 })
    await threads.append(id, userWith([{ type: 'text', text: 'Look' }, imagePart(image)]))
    const result = project({
      thread: await threads.load(id),
      policy: definePolicy({ maxInputTokens: 10_000, reserveOutputTokens: 100 }),
      counter: customTokenCounter('heuristic', heuristicCount, false),
    })
    const attachmentData = await attachments.dataFor(result)
    const base64 = btoa(String.fromCharCode(...pngBytes))
    expect(toOpenAIChat(result, { attachmentData })[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
      ],
    })
    expect(toAnthropicMessages(result, { attachmentData }).messages[0]?.content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: base64 },
    })
    expect(() => toOpenAIChat(result)).toThrow(/attachmentData/)
    db.close()
  })
})

describe('attachments in the in-memory fallback stores', () => {
  it('are deleted, forked, exported and imported with their threads, as in the database', async () => {
    const { threads, attachments } = createMemoryBackedStores()
    const a = await threads.create()
    const image = await attachments.put(a.id, png(), { width: 1, height: 1 })
    await threads.append(a.id, userWith([{ type: 'text', text: 'Look' }, imagePart(image)]))
    const fork = await threads.fork(a.id, { atSeq: 0 })
    const exported = await threads.export(a.id)
    expect(JSON.parse(exported.split('\n')[0] as string)).toMatchObject({ attachmentCount: 1 })
    await threads.delete(a.id)
    expect(await attachments.get(image.id)).toBeInstanceOf(Blob)
    await threads.delete(fork.id)
    expect(await attachments.get(image.id)).toBeUndefined()
    const { threadId: copy } = await threads.import(exported)
    expect(new Uint8Array(await ((await attachments.get(image.id)) as Blob).arrayBuffer())).toEqual(pngBytes)
    expect((await threads.export(copy)).split('\n').slice(2)).toEqual(exported.split('\n').slice(2))
  })
})

describe('schema version 4', () => {
  it('upgrades a version 3 database: everything intact, attachments usable at once', async () => {
    const entries = [
      { id: 'e0', threadId: 'v3-thread', seq: 0, kind: 'message', payload: { role: 'user', content: 'hello' }, refs: {}, createdAt: 1 },
    ] as unknown as Entry[]
    const { db, threads, threadId } = await upgradeFrom(3, schemaV3, entries, (raw) =>
      raw.table('calibrations').put({ model: 'm', counter: 'heuristic', ratio: 1.1 }),
    )
    expect(db.verno).toBe(schemaVersion)
    expect(await db.calibrations.count()).toBe(1)
    const attachments = createAttachmentStore(db)
    const image = await attachments.put(threadId, png())
    expect((await threads.append(threadId, userWith([imagePart(image)]))).seq).toBe(1)
    db.close()
  })
})
