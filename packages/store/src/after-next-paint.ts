/** Longest wait for a frame: a hidden tab paints none, and its work must still run. */
const NO_FRAME_AFTER_MS = 100

/**
 * Runs `task` once, after the page has painted its next frame (a task queued from the next
 * animation frame), so that work which can wait does not delay what a commit just put on screen.
 * Where no frame comes (a hidden tab, a worker, Node) it runs after at most 100 ms.
 */
export function afterNextPaint(task: () => void): void {
  let done = false
  const run = (): void => {
    if (done) return
    done = true
    task()
  }
  const fallback = setTimeout(run, NO_FRAME_AFTER_MS)
  if (typeof globalThis.requestAnimationFrame !== 'function') {
    clearTimeout(fallback)
    setTimeout(run, 0)
    return
  }
  globalThis.requestAnimationFrame(() =>
    setTimeout(() => {
      clearTimeout(fallback)
      run()
    }, 0),
  )
}
