import { openThreadlensStores } from '@threadlens/store'
import { createSync, indexedDbSyncState } from '@threadlens/sync'

declare function signedInUser(): { id: string; token(): Promise<string> }

const stores = await openThreadlensStores({ name: 'chat' })
const user = signedInUser()
const sync = createSync({
  threads: stores.threads,
  url: `https://streams.example.com/v1/stream/users/${user.id}`,
  headers: async () => ({ Authorization: `Bearer ${await user.token()}` }),
  state: indexedDbSyncState({ name: `threadlens-sync:${user.id}` }),
  include: (thread) => thread.metadata.private !== true,
})
sync.status.subscribe(() => {
  const { state, pending } = sync.status.getSnapshot()
  console.log(state === 'pending' ? `pending ${pending}` : state) // synced, offline, error, …
})
// On sign-out: await sync.stop()
