import { useLayoutEffect, useRef, type UIEvent } from 'react'

/**
 * Keeps the conversation scrolled the way a reader expects: a view at the end stays at the end as
 * items arrive or the view shrinks, and showing earlier items keeps the view on the item that was first.
 * `changes` are what alter the content's height (items, the streaming text, the pending bubble, the page).
 */
export function useConversationScroll(changes: readonly unknown[]) {
  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  // Showing earlier items keeps the view on the item that was first, instead of jumping.
  const anchor = useRef<{ height: number; top: number } | undefined>(undefined)

  useLayoutEffect(() => {
    const element = scroller.current
    if (element === null) return
    if (anchor.current !== undefined) {
      element.scrollTop = element.scrollHeight - anchor.current.height + anchor.current.top
      anchor.current = undefined
    } else if (stick.current) element.scrollTop = element.scrollHeight
  }, changes)
  // When the view shrinks (a docked devtools panel opens or grows, the window resizes), a view that
  // was at the end stays at the end, so the newest message is still in sight.
  useLayoutEffect(() => {
    const element = scroller.current
    if (element === null || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (stick.current) element.scrollTop = element.scrollHeight
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget
    stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80
  }
  /** Call before earlier items are shown, so the next layout keeps the current first item in place. */
  const keepPlace = () => {
    const element = scroller.current
    if (element !== null) anchor.current = { height: element.scrollHeight, top: element.scrollTop }
  }
  return { scroller, onScroll, keepPlace }
}
