/**
 * Gives a reply's tool calls ids unique in the thread, as they stream: some servers number calls
 * `call_0`, `call_1` afresh in every reply, or repeat an id within one reply. A taken id gets a
 * `_2`, `_3`… suffix; ids only pair a call with its result inside a request, so the provider never
 * needs the old one. Every event of one call (its `tool-call-start`, then its `tool-call`) gets the
 * same id, so what the session streams matches what it writes.
 */
export class ToolCallIds {
  readonly #taken: (toolCallId: string) => boolean
  readonly #used = new Set<string>()
  /** Ids given to calls whose start was seen and whose complete call was not, by the server's id. */
  readonly #open = new Map<string, string[]>()

  constructor(taken: (toolCallId: string) => boolean) {
    this.#taken = taken
  }

  /** The id for a call that starts now. */
  start(serverId: string): string {
    const id = this.#fresh(serverId)
    this.#open.set(serverId, [...(this.#open.get(serverId) ?? []), id])
    return id
  }

  /** The id for a complete call: the one its start got, or a fresh one if no start was seen. */
  complete(serverId: string): string {
    const open = this.#open.get(serverId)
    const id = open?.shift()
    if (open !== undefined && open.length === 0) this.#open.delete(serverId)
    return id ?? this.#fresh(serverId)
  }

  #fresh(serverId: string): string {
    let id = serverId
    for (let suffix = 2; this.#taken(id) || this.#used.has(id); suffix += 1) id = `${serverId}_${suffix}`
    this.#used.add(id)
    return id
  }
}
