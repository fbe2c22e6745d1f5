import type { Page } from '@playwright/test'

// Layout checks shared by the layout specs: run in the page over one scope, a CSS selector whose
// element (or, for a shadow host such as the devtools, its shadow root) holds what is checked.

/** The devtools' shadow host. */
export const devtoolsScope = '[data-testid="threadlens-devtools"]'

export interface Overlap {
  readonly first: string
  readonly second: string
  readonly width: number
  readonly height: number
}

/**
 * Pairs of visible labelled controls (their boxes) or text blocks (their glyphs' line boxes, even
 * where they overflow a squeezed box) in the panel that intersect by more than 1 px both ways.
 * Ancestors and descendants are not compared, and each box is first clipped by the ancestors that
 * clip their overflow (a row scrolled out of sight is not visible).
 */
export async function overlaps(page: Page, scope: string = devtoolsScope): Promise<Overlap[]> {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector)
    const root = host?.shadowRoot ?? host
    if (root === null || root === undefined) throw new Error(`nothing matches ${selector}`)
    const controls = 'button, input, select, textarea, label, h1, h2, h3, h4, h5, h6, summary, [role="tab"], [role="separator"]'
    const describe = (element: Element): string => {
      const id = element.getAttribute('data-testid')
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `<${element.tagName.toLowerCase()}${id === null ? '' : ` data-testid="${id}"`}${element.className === '' ? '' : ` class="${String(element.className)}"`}> "${text}"`
    }
    const intersect = (box: DOMRect, outer: DOMRect): DOMRect | undefined => {
      const left = Math.max(box.left, outer.left)
      const top = Math.max(box.top, outer.top)
      const right = Math.min(box.right, outer.right)
      const bottom = Math.min(box.bottom, outer.bottom)
      return right - left < 1 || bottom - top < 1 ? undefined : new DOMRect(left, top, right - left, bottom - top)
    }
    // What is seen of a box: clipped by every ancestor (from `from` up) that clips its overflow.
    const clip = (box: DOMRect, from: Element | null): DOMRect | undefined => {
      let seen: DOMRect | undefined = box
      for (let parent = from; parent !== null && seen !== undefined; parent = parent.parentElement) {
        const style = getComputedStyle(parent)
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
        seen = intersect(seen, parent.getBoundingClientRect())
      }
      return seen
    }
    const items: { element: Element; boxes: DOMRect[] }[] = []
    for (const element of root.querySelectorAll('*')) {
      // Also false inside a closed <details> (its content is laid out but not shown).
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue
      let raw: DOMRect[] = []
      let clipFrom: Element | null = element.parentElement
      if (element.matches(controls)) raw = [...element.getClientRects()]
      else {
        // A text block is where its glyphs are (its line boxes), even when they overflow a box squeezed to nothing.
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || (node.textContent ?? '').trim() === '') continue
          const range = document.createRange()
          range.selectNodeContents(node)
          raw.push(...range.getClientRects())
        }
        clipFrom = element
      }
      const boxes = raw.map((box) => clip(box, clipFrom)).filter((box): box is DOMRect => box !== undefined)
      if (boxes.length > 0) items.push({ element, boxes })
    }
    const found: { first: string; second: string; width: number; height: number }[] = []
    for (let i = 0; i < items.length; i += 1) {
      for (let j = i + 1; j < items.length; j += 1) {
        const a = items[i] as (typeof items)[number]
        const b = items[j] as (typeof items)[number]
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue
        for (const boxA of a.boxes) {
          for (const boxB of b.boxes) {
            const width = Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left)
            const height = Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top)
            if (width > 1 && height > 1) found.push({ first: describe(a.element), second: describe(b.element), width: Math.round(width), height: Math.round(height) })
          }
        }
      }
    }
    return found
  }, scope)
}

/** Text blocks of three words or more that the layout squeezed to one word per line. */
export async function squeezedText(page: Page, scope: string = devtoolsScope): Promise<string[]> {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector)
    const root = host?.shadowRoot ?? host
    if (root === null || root === undefined) throw new Error(`nothing matches ${selector}`)
    const found: string[] = []
    for (const element of root.querySelectorAll('*')) {
      if (element.children.length > 0 || !element.checkVisibility({ contentVisibilityAuto: true })) continue
      const node = element.firstChild
      if (node === null || node.nodeType !== Node.TEXT_NODE) continue
      const text = node.textContent ?? ''
      const words = [...text.matchAll(/\S+/g)]
      if (words.length < 3) continue
      // The top of each word's first line box: words that share a top share a line.
      const tops = new Set<number>()
      for (const word of words) {
        const range = document.createRange()
        range.setStart(node, word.index)
        range.setEnd(node, word.index + word[0].length)
        const first = range.getClientRects()[0]
        if (first !== undefined) tops.add(Math.round(first.top))
      }
      if (tops.size === words.length) found.push(`"${text.trim().slice(0, 50)}" (${Math.round(element.getBoundingClientRect().width)} px wide, ${words.length} words on ${tops.size} lines)`)
    }
    return found
  }, scope)
}

/** Scrolling regions of the panel that scroll sideways (only the tab strip may). */
export async function sidewaysScrolling(page: Page, scope: string = devtoolsScope): Promise<string[]> {
  return page.evaluate((selector) => {
    const host = document.querySelector(selector)
    const root = host?.shadowRoot ?? host
    if (root === null || root === undefined) throw new Error(`nothing matches ${selector}`)
    const found: string[] = []
    for (const element of root.querySelectorAll('*')) {
      if (element.matches('[role="tablist"]') || !element.checkVisibility({ contentVisibilityAuto: true })) continue
      const style = getComputedStyle(element)
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll'
      if (scrolls && element.scrollWidth > element.clientWidth + 1) {
        found.push(`<${element.tagName.toLowerCase()} class="${String(element.className)}"> is ${element.scrollWidth} px wide in ${element.clientWidth} px`)
      }
    }
    return found
  }, scope)
}
