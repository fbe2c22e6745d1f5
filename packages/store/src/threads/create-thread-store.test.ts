import { describeStoreContract } from '../testing/thread-store-contract'
import { openTestStores } from '../testing/test-database'

describeStoreContract('IndexedDB (fake-indexeddb)', async (options) => openTestStores('contract', options))
