/** The tiny subscribe contract every stateful threadlens object exposes. */
export class Subscribable<TListener extends (...args: never[]) => void> {
  protected readonly listeners = new Set<TListener>()

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: TListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  hasListeners(): boolean {
    return this.listeners.size > 0
  }
}
