/**
 * @threadlens/store/dexie: the `ThreadlensDB` class itself (a Dexie subclass), for apps that
 * subclass it or need `instanceof`. Importing it loads Dexie eagerly; `openThreadlensDB` from
 * `@threadlens/store` gives the same class, loaded on first open.
 */

export { ThreadlensDB } from '../backends/indexeddb/threadlens-db'
