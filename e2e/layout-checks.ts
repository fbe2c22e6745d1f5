import type { Page } from '@playwright/test'

// Layout checks shared by the layout specs: run in the page over one scope, a CSS selector whose
// element (or, for a shadow host such as the devtools, its shadow root) holds what is checked.

/** The devtools' shadow host. */
export const devtoolsScope = '[data-testid="threadlens-devtools"]'

/**
 * Runs `check` in the page on the scope's root (the element, or a shadow host's shadow root). Like
 * any function given to `page.evaluate`, `check` is sent to the page alone: it can use only `root`
 * and what the page has.
 */
async function inScope<R>(page: Page, scope: string, check: (root: ParentNode) => R): Promise<R> {
  const root = await page.evaluateHandle((selector) => {
    const host = document.querySelector(selector)
    const found = host?.shadowRoot ?? host
    if (found === null || found === undefined) throw new Error(`nothing matches ${selector}`)
    return found as ParentNode
  }, scope)
  try {
    return await root.evaluate(check)
  } finally {
    await root.dispose()
  }
}

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
 * clip their overflow (a row scrolled out of sight is not visible); boxes that lie wholly above or
 * left of the page's origin, where no scrolling shows them, are left out.
 */
export async function overlaps(page: Page, scope: string = devtoolsScope): Promise<Overlap[]> {
  return inScope(page, scope, (root) => {
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
    // The area an element and its ancestors let show (`undefined`: no limit, `null`: nothing), once per element.
    const areas = new Map<Element, DOMRect | null | undefined>()
    const areaOf = (element: Element | null): DOMRect | null | undefined => {
      if (element === null) return undefined
      if (areas.has(element)) return areas.get(element)
      let area = areaOf(element.parentElement)
      const style = getComputedStyle(element)
      if (area !== null && !(style.overflowX === 'visible' && style.overflowY === 'visible')) {
        const own = element.getBoundingClientRect()
        area = area === undefined ? own : (intersect(own, area) ?? null)
      }
      areas.set(element, area)
      return area
    }
    // What is seen of a box: clipped by every ancestor (from `from` up) that clips its overflow.
    const clip = (box: DOMRect, from: Element | null): DOMRect | undefined => {
      const area = areaOf(from)
      return area === null ? undefined : area === undefined ? box : intersect(box, area)
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
      // A box wholly above or left of the page's origin (a skip link until it is focused) is never seen.
      const seen = raw.filter((box) => box.bottom + scrollY > 0 && box.right + scrollX > 0)
      const boxes = seen.map((box) => clip(box, clipFrom)).filter((box): box is DOMRect => box !== undefined)
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
            if (width > 1 && height > 1)
              found.push({ first: describe(a.element), second: describe(b.element), width: Math.round(width), height: Math.round(height) })
          }
        }
      }
    }
    return found
  })
}

/** Text blocks of three words or more that the layout squeezed to one word per line. */
export async function squeezedText(page: Page, scope: string = devtoolsScope): Promise<string[]> {
  return inScope(page, scope, (root) => {
    const found: string[] = []
    for (const element of root.querySelectorAll('*')) {
      if (element.children.length > 0 || !element.checkVisibility({ contentVisibilityAuto: true })) continue
      const node = element.firstChild
      if (node === null || node.nodeType !== Node.TEXT_NODE) continue
      const text = node.textContent ?? ''
      const words = [...text.matchAll(/\S+/g)]
      if (words.length < 3) continue
      // One line box per word at least, or no word is alone on its line: one range for the whole text first.
      const whole = document.createRange()
      whole.selectNodeContents(node)
      if (whole.getClientRects().length < words.length) continue
      // The top of each word's first line box: words that share a top share a line.
      const tops = new Set<number>()
      for (const word of words) {
        const range = document.createRange()
        range.setStart(node, word.index)
        range.setEnd(node, word.index + word[0].length)
        const first = range.getClientRects()[0]
        if (first !== undefined) tops.add(Math.round(first.top))
      }
      if (tops.size === words.length)
        found.push(
          `"${text.trim().slice(0, 50)}" (${Math.round(element.getBoundingClientRect().width)} px wide, ${words.length} words on ${tops.size} lines)`,
        )
    }
    return found
  })
}

/** Scrolling regions of the panel that scroll sideways (only the tab strip may). */
export async function sidewaysScrolling(page: Page, scope: string = devtoolsScope): Promise<string[]> {
  return inScope(page, scope, (root) => {
    const found: string[] = []
    for (const element of root.querySelectorAll('*')) {
      if (element.matches('[role="tablist"]') || !element.checkVisibility({ contentVisibilityAuto: true })) continue
      const style = getComputedStyle(element)
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll'
      if (scrolls && element.scrollWidth > element.clientWidth + 1) {
        found.push(
          `<${element.tagName.toLowerCase()} class="${String(element.className)}"> is ${element.scrollWidth} px wide in ${element.clientWidth} px`,
        )
      }
    }
    return found
  })
}

/** A region of the scope that scrolls up and down and holds more than it shows. */
export interface Scroller {
  /** `scrollTo` finds it again by it (its `data-layout-scroller` attribute). */
  readonly index: number
  readonly name: string
  /** Where it was scrolled to when found. */
  readonly initialTop: number
  /** Scroll offsets that show all of it, one view after the other. */
  readonly stops: readonly number[]
}

/** The scope's vertical scrollers (outer ones first), each with the offsets that bring every part of it into view. */
export async function scrollers(page: Page, scope: string = devtoolsScope): Promise<Scroller[]> {
  return inScope(page, scope, (root) => {
    const found: Scroller[] = []
    for (const marked of root.querySelectorAll('[data-layout-scroller]')) marked.removeAttribute('data-layout-scroller')
    for (const element of root.querySelectorAll('*')) {
      const style = getComputedStyle(element)
      if ((style.overflowY !== 'auto' && style.overflowY !== 'scroll') || !element.checkVisibility({ contentVisibilityAuto: true })) continue
      const range = element.scrollHeight - element.clientHeight
      if (range <= 1 || element.clientHeight < 24) continue
      // Each view overlaps the one before by a few lines, so nothing falls between two.
      const step = Math.max(16, element.clientHeight - 24)
      const stops: number[] = []
      for (let top = 0; top < range; top += step) stops.push(top)
      stops.push(range)
      const id = element.getAttribute('data-testid') ?? element.getAttribute('aria-label')
      const index = found.length
      element.setAttribute('data-layout-scroller', String(index))
      found.push({
        index,
        name: `<${element.tagName.toLowerCase()}${id === null ? '' : ` "${id}"`} class="${String(element.className)}">`,
        initialTop: element.scrollTop,
        stops,
      })
    }
    return found
  })
}

/**
 * Scrolls the scroller `index` (see `scrollers`) to `top` and waits for the page to paint it; with
 * `reveal`, first scrolls the scrollers around it so that it is in view.
 */
export async function scrollTo(page: Page, index: number, top: number, reveal: boolean, scope: string = devtoolsScope): Promise<void> {
  await page.evaluate(
    async ([selector, at, offset, show]) => {
      const host = document.querySelector(selector as string)
      const root = host?.shadowRoot ?? host
      const element = root?.querySelector(`[data-layout-scroller="${String(at)}"]`)
      if (element === null || element === undefined) throw new Error(`no scroller ${String(at)} in ${String(selector)}`)
      if (show === true) element.scrollIntoView({ block: 'start' })
      element.scrollTop = offset as number
      // Two frames: a virtual list renders the rows of its new offset, then they are laid out.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    },
    [scope, index, top, reveal] as const,
  )
}

/**
 * Runs `check` on the scope as it is, then on every view of every scroller in it (outer ones first,
 * each scrolled from top to bottom, the others where they were), so what lies scrolled out of sight
 * is checked too. Returns how many views were checked.
 */
export async function acrossScrolling(page: Page, check: (where: string) => Promise<void>, scope: string = devtoolsScope): Promise<number> {
  const found = await scrollers(page, scope)
  await check('as opened')
  let views = 1
  for (const scroller of found) {
    for (const [position, top] of scroller.stops.entries()) {
      await scrollTo(page, scroller.index, top, position === 0, scope)
      await check(`${scroller.name} scrolled to ${Math.round(top)} px`)
      views += 1
    }
    for (const each of found) await scrollTo(page, each.index, each.initialTop, false, scope)
  }
  return views
}

/**
 * Text the layout cuts off with no other way to read it: a visible element that clips its overflow
 * (hidden or clip, so it does not scroll), holds text, and has more content than it shows, with no
 * `title` on it or an ancestor to show the rest. Boxes of 2 px or less (visually hidden text for
 * screen readers) are not looked at.
 */
export async function cutText(page: Page, scope: string = devtoolsScope): Promise<string[]> {
  return inScope(page, scope, (root) => {
    const clips = (value: string) => value === 'hidden' || value === 'clip'
    const found: string[] = []
    for (const element of root.querySelectorAll('*')) {
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue
      const style = getComputedStyle(element)
      const cutX = clips(style.overflowX) && element.scrollWidth > element.clientWidth + 1
      const cutY = clips(style.overflowY) && element.scrollHeight > element.clientHeight + 1
      if (!cutX && !cutY) continue
      const box = element.getBoundingClientRect()
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ')
      if (box.width <= 2 || box.height <= 2 || text === '' || element.closest('[title]') !== null) continue
      const id = element.getAttribute('data-testid')
      const size = cutX ? `${element.scrollWidth} px wide in ${element.clientWidth}` : `${element.scrollHeight} px tall in ${element.clientHeight}`
      found.push(
        `<${element.tagName.toLowerCase()}${id === null ? '' : ` data-testid="${id}"`} class="${String(element.className)}"> "${text.slice(0, 40)}" (${size})`,
      )
    }
    return found
  })
}
