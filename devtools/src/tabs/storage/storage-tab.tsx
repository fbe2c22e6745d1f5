import type { ThreadSnapshot } from '@threadlens/client'
import { useThread, useThreadlensClient } from '@threadlens/react'
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { downloadText, fileSafe } from '../../view-models/download'
import { formatNumber, formatPercent } from '../../view-models/meter-parts'
import { usePanel } from '../../panel/panel-context'
import { usePanelProjection } from '../../panel/panel-projection'
import type { DevtoolsSyncSource, DevtoolsSyncStatus } from '../../panel/panel-props'

// The stored record, by way of @threadlens/client (a dependency): the devtools do not depend on the store package.
type ThreadRecord = NonNullable<ThreadSnapshot['record']>

interface StorageFacts {
  readonly usage: number | undefined
  readonly quota: number | undefined
  readonly indexedDB: number | undefined
  readonly persisted: boolean | undefined
}

async function readFacts(): Promise<StorageFacts> {
  const storage = globalThis.navigator?.storage
  if (storage === undefined) return { usage: undefined, quota: undefined, indexedDB: undefined, persisted: undefined }
  const [estimate, persisted] = await Promise.all([storage.estimate().catch(() => undefined), storage.persisted?.().catch(() => undefined)])
  const details = (estimate as { usageDetails?: { indexedDB?: number } } | undefined)?.usageDetails
  return { usage: estimate?.usage, quota: estimate?.quota, indexedDB: details?.indexedDB, persisted }
}

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? 'unknown' : `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
}

/** Shortest time between two reads of the storage facts while entries are being appended. */
const REREAD_MS = 1_000

/**
 * The origin's storage facts and the thread's record, live: read when the tab opens or the thread
 * changes, then again as entries are appended (at most once per `REREAD_MS`, the last append
 * always read). The entry count follows the live thread at once.
 */
function useStorageFacts(threadId: string) {
  const client = useThreadlensClient()
  const version = useThread(threadId, (snapshot) => snapshot.version)
  const liveRecord = useThread(threadId, (snapshot) => snapshot.record)
  const [facts, setFacts] = useState<StorageFacts | undefined>(undefined)
  const [readRecord, setRecord] = useState<ThreadRecord | undefined>(undefined)
  const lastRead = useRef(Number.NEGATIVE_INFINITY)
  // Reads answer for the thread they were made for, even when an append comes in meanwhile.
  const current = useRef(threadId)
  useEffect(() => {
    current.current = threadId
    lastRead.current = Number.NEGATIVE_INFINITY
    setRecord(undefined)
    return () => {
      current.current = ''
    }
  }, [threadId])
  useEffect(() => {
    const read = () => {
      lastRead.current = Date.now()
      readFacts().then((next) => {
        if (current.current === threadId) setFacts(next)
      })
      client.threads.get(threadId).then(
        (found) => {
          if (current.current === threadId) setRecord(found)
        },
        () => undefined,
      )
    }
    const wait = lastRead.current + REREAD_MS - Date.now()
    if (wait <= 0) {
      read()
      return undefined
    }
    const timer = setTimeout(read, wait)
    return () => clearTimeout(timer)
  }, [client, threadId, version])
  // A rename or a tag from another tab comes with the live record; the count with the live thread.
  const newer = liveRecord !== undefined && (readRecord === undefined || liveRecord.updatedAt > readRecord.updatedAt) ? liveRecord : readRecord
  const record = newer === undefined ? undefined : { ...newer, entryCount: Math.max(newer.entryCount, version) }
  const refreshFacts = async () => setFacts(await readFacts())
  return { facts, record, refreshFacts }
}

/** Origin storage usage and quota, persistence, and exports of the thread and the projection. */
export function StorageTab() {
  const panel = usePanel()
  const client = useThreadlensClient()
  const projection = usePanelProjection()
  const [message, setMessage] = useState<string | undefined>(undefined)
  const { facts, record, refreshFacts } = useStorageFacts(panel.threadId)
  const requestPersist = async () => {
    const granted = await globalThis.navigator?.storage?.persist?.()
    setMessage(granted === true ? 'Storage is now persistent.' : 'The browser did not grant persistent storage (it decides by site engagement).')
    await refreshFacts()
  }
  const exportThread = async () => {
    try {
      const jsonl = await client.threads.export(panel.threadId)
      downloadText(`${fileSafe(panel.threadId)}.jsonl`, jsonl, 'application/x-ndjson')
      setMessage(`Exported ${formatNumber(jsonl.split('\n').filter((line) => line !== '').length - 1)} entries.`)
    } catch (error) {
      setMessage(`Export failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const exportProjection = () => {
    const result = projection.result
    if (result === undefined) return
    const json = JSON.stringify({ threadId: panel.threadId, policy: panel.policy, messages: result.messages, meta: result.meta }, null, 2)
    downloadText(`${fileSafe(panel.threadId)}-projection.json`, json, 'application/json')
    setMessage('Exported the projection.')
  }
  return (
    <>
      <StorageFactsTable
        persistent={client.threads.persistent}
        record={record}
        facts={facts}
        onRequestPersist={requestPersist}
        sync={panel.sync === undefined ? undefined : <SyncFact source={panel.sync} />}
      />
      <div className="tl-row">
        <button type="button" className="tl-button" data-testid="export-thread" onClick={exportThread}>
          export thread (JSONL)
        </button>
        <button
          type="button"
          className="tl-button"
          data-testid="export-projection"
          disabled={projection.result === undefined}
          onClick={exportProjection}
        >
          export projection (JSON)
        </button>
      </div>
      {message === undefined ? null : (
        <p className="tl-muted" role="status" data-testid="storage-message">
          {message}
        </p>
      )}
    </>
  )
}

interface StorageFactsTableProps {
  /** Whether the thread store is IndexedDB rather than memory. */
  readonly persistent: boolean
  readonly record: ThreadRecord | undefined
  readonly facts: StorageFacts | undefined
  /** The sync row's content, when the app gave a sync status. */
  readonly sync: ReactNode | undefined
  onRequestPersist(): void
}

/** `synced`, `pending 3`, `offline: <why>`…: the status as text (an error's message is never HTML). */
export function syncStatusText(status: DevtoolsSyncStatus): string {
  if (status.state === 'pending') return `pending ${formatNumber(status.pending)}`
  const why = status.error === null ? '' : `: ${status.error.message}`
  const when = status.state === 'synced' && status.lastSyncedAt !== null ? ` at ${new Date(status.lastSyncedAt).toISOString()}` : ''
  return `${status.state}${when}${status.state === 'offline' || status.state === 'error' ? why : ''}`
}

/** What sync reported beside its state (conflicts, recovered threads, refused messages), one line each, as text. */
export function syncNotices(status: DevtoolsSyncStatus): string[] {
  const notices: string[] = []
  for (const conflict of status.conflicts ?? []) notices.push(`memory conflict: ${conflict.message}`)
  for (const { from, to } of status.recovered ?? [])
    notices.push(`thread ${from} was deleted on another device: its unsynced entries are in thread ${to}`)
  const rejected = status.rejected ?? []
  if (rejected.length > 0)
    notices.push(
      `${formatNumber(rejected.length)} stream message${rejected.length === 1 ? '' : 's'} refused; the newest: ${rejected.at(-1)!.message}`,
    )
  return notices
}

function SyncFact({ source }: { readonly source: DevtoolsSyncSource }) {
  const status = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
  const notices = syncNotices(status)
  return (
    <>
      {syncStatusText(status)}
      {notices.length === 0 ? null : (
        <ul className="tl-block-list" data-testid="storage-sync-notices">
          {notices.map((notice, index) => (
            <li key={index}>{notice}</li>
          ))}
        </ul>
      )}
    </>
  )
}

/** Where the thread lives, its record, and the origin's usage, quota and persistence. */
function StorageFactsTable({ persistent, record, facts, sync, onRequestPersist }: StorageFactsTableProps) {
  return (
    <table className="tl-table" data-testid="storage-facts">
      <tbody>
        <tr>
          <th>thread store</th>
          <td data-testid="storage-persistent">{persistent ? 'IndexedDB' : 'in memory only: nothing survives a reload'}</td>
        </tr>
        <tr>
          <th>sync</th>
          <td data-testid="storage-sync">{sync ?? 'off: this app gave the devtools no sync status'}</td>
        </tr>
        <tr>
          <th>thread</th>
          <td data-testid="storage-thread">
            {record === undefined
              ? 'reading…'
              : `${formatNumber(record.entryCount)} entries${record.title === '' ? '' : ` · “${record.title}”`} · created ${new Date(record.createdAt).toISOString()} · updated ${new Date(record.updatedAt).toISOString()}${record.parent === null ? '' : ` · forked from ${record.parent.threadId} at #${record.parent.atSeq}`}`}
          </td>
        </tr>
        <tr>
          <th>origin usage</th>
          <td data-testid="storage-usage">
            {facts === undefined ? 'reading…' : `${megabytes(facts.usage)} of ${megabytes(facts.quota)}`}
            {facts?.usage !== undefined && facts.quota !== undefined && facts.quota > 0 ? ` (${formatPercent(facts.usage / facts.quota)})` : ''}
          </td>
        </tr>
        <tr>
          <th>IndexedDB</th>
          <td>{facts === undefined ? 'reading…' : megabytes(facts.indexedDB)}</td>
        </tr>
        <tr>
          <th>persistent storage</th>
          <td data-testid="storage-persisted">
            {facts === undefined
              ? 'reading…'
              : facts.persisted === undefined
                ? 'unknown'
                : facts.persisted
                  ? 'yes: the browser will not evict it'
                  : 'no: the browser may evict it under pressure'}{' '}
            {facts?.persisted === false ? (
              <button type="button" className="tl-button" onClick={onRequestPersist}>
                request persistence
              </button>
            ) : null}
          </td>
        </tr>
      </tbody>
    </table>
  )
}
