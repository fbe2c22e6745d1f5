import type { DBCore, Middleware } from 'dexie'

/** A write of this tab: which thread it appended to, and up to which seq. */
export interface OwnAppend {
  readonly threadId: string
  readonly lastSeq: number
}

/**
 * What a database connection knows of its own commits: callbacks to run when a write transaction
 * commits (before Dexie's own completion work), and which of Dexie's change signals come from
 * this connection's appends.
 */
export class CommitHooks {
  readonly #callbacks = new WeakMap<IDBTransaction, (() => void)[]>()
  // Dexie's change signal for a commit is the transaction's own set of changed parts.
  readonly #ownAppends = new WeakMap<object, OwnAppend>()

  /**
   * The Dexie middleware that listens for `complete`. Innermost (lowest level): its listener comes
   * before Dexie's own completion work (its promises settling, live queries re-running).
   */
  middleware(): Middleware<DBCore> {
    return {
      stack: 'dbcore',
      name: 'threadlens-committed',
      level: -10,
      create: (down) => ({
        ...down,
        transaction: (stores, mode, transactionOptions) => {
          const transaction = down.transaction(stores, mode, transactionOptions)
          if (mode === 'readwrite') {
            const idbTransaction = transaction as unknown as IDBTransaction
            idbTransaction.addEventListener('complete', () => runCommitted(this.#callbacks.get(idbTransaction)))
          }
          return transaction
        },
      }),
    }
  }

  /** Runs `callback` with the transaction's changed parts once `transaction` (a write) has committed. */
  onCommitted(transaction: IDBTransaction, callback: (changed: object | undefined) => void): void {
    // Dexie keeps what the transaction changed on it, and sends that same object as its change signal.
    const run = () => callback((transaction as IDBTransaction & { mutatedParts?: object }).mutatedParts)
    const callbacks = this.#callbacks.get(transaction)
    if (callbacks === undefined) this.#callbacks.set(transaction, [run])
    else callbacks.push(run)
  }

  /** Remembers a committed change signal (Dexie's changed parts) as this connection's append. */
  rememberOwnAppend(changed: object, append: OwnAppend): void {
    this.#ownAppends.set(changed, append)
  }

  ownAppendIn(changed: object): OwnAppend | undefined {
    return this.#ownAppends.get(changed)
  }
}

function runCommitted(callbacks: readonly (() => void)[] | undefined): void {
  for (const callback of callbacks ?? []) {
    try {
      callback()
    } catch (error) {
      // The write has committed: a throwing callback must not stop the others or Dexie's completion.
      queueMicrotask(() => {
        throw error
      })
    }
  }
}
