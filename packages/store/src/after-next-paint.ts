/** Longest wait for a frame: a hidden tab paints none, and its work must still run. */
const NO_FRAME_AFTER_MS = 100

/**
 * Runs `task` once, after the page has painted its next frame (a task queued from the next
 * animation frame), so that work which can wait does not delay what a commit just put on screen.
 * Where no frame comes (a hidden tab) it runs after at most 100 ms; without frames at all (a
 * worker, Node) in the next task.
 */
export function afterNextPaint(task: () => void): void {
  if (typeof globalThis.requestAnimationFrame !== 'function') {
    setTimeout(task, 0)
    return
  }
  let done = false
  const run = (): void => {
    if (done) return
    done = true
    task()
  }
  setTimeout(run, NO_FRAME_AFTER_MS)
  globalThis.requestAnimationFrame(() => setTimeout(run, 0))
}
