import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { collectErrors } from './chat-page'
import { overlaps, sidewaysScrolling, squeezedText } from './layout-checks'

// The projection lab (`?view=lab`) at a phone's, a tablet's and a desktop's width: the demo's
// styles lay it out so nothing overlaps, nothing is squeezed to a word per line, the page never
// scrolls sideways, axe finds nothing critical or serious, and a docked devtools panel gets its
// room. Screenshots are saved as test artifacts.

const scope = '.lab-page'

// 1024 × 768: a short window, where a docked panel leaves the lab less height than its columns need.
for (const [width, height] of [[390, 900], [800, 900], [1024, 768], [1440, 900]] as const) {
  test(`the lab at ${width} px: laid out, nothing overlaps, axe finds nothing serious`, async ({ page }, testInfo) => {
    const errors = collectErrors(page)
    await page.setViewportSize({ width, height })
    await page.goto('/?view=lab')
    await expect(page.getByRole('heading', { name: 'threadlens', level: 1 })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('projection-loading')).toHaveCount(0, { timeout: 30_000 })
    await expect(page.getByRole('list', { name: 'Thread timeline' })).toBeVisible()

    // Styled: the lab's columns are boxes with a border, not bare lists.
    await expect(page.locator('.panel').first()).toHaveCSS('border-top-style', 'solid')
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(pageWidth, 'the page scrolls sideways').toBeLessThanOrEqual(width)
    const found = [
      ...(await sidewaysScrolling(page, scope)).map((item) => `scrolls sideways: ${item}`),
      ...(await overlaps(page, scope)).map((item) => `${item.first} overlaps ${item.second} by ${item.width}×${item.height} px`),
      ...(await squeezedText(page, scope)).map((item) => `one word per line: ${item}`),
    ]
    const axe = await new AxeBuilder({ page }).analyze()
    found.push(
      ...axe.violations
        .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
        .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    )
    const path = testInfo.outputPath(`lab-${width}.png`)
    await page.screenshot({ path, fullPage: true })
    await testInfo.attach(`lab-${width}`, { path, contentType: 'image/png' })

    // Docked at the bottom, the devtools take their room and the lab keeps the rest.
    const devtools = page.getByTestId('threadlens-devtools')
    await devtools.getByTestId('devtools-toggle').click()
    await devtools.getByTestId('dock-bottom').click()
    const frame = devtools.getByTestId('devtools-frame')
    await expect(frame).toHaveAttribute('data-edge', 'bottom')
    await expect(devtools.getByTestId('meter-compact')).toBeVisible({ timeout: 30_000 })
    const frameTop = (await frame.boundingBox())?.y ?? 0
    const last = page.locator('.lab-page .panel').last()
    // Scrolled to its end, the page shows its last column whole above the panel.
    await page.evaluate(() => globalThis.scrollTo(0, document.documentElement.scrollHeight))
    const box = await last.boundingBox()
    expect((box?.y ?? 0) + (box?.height ?? 0), 'the last column ends above the docked panel').toBeLessThanOrEqual(frameTop + 1)
    // Beside the panel the columns keep room for more than their headings, and axe still finds nothing serious.
    const messages = await page.locator('.lab-page .panel').first().boundingBox()
    expect(messages?.height ?? 0, 'the projected messages keep room for rows beside the docked panel').toBeGreaterThan(160)
    const docked = await new AxeBuilder({ page }).analyze()
    found.push(...docked.violations.filter((violation) => violation.impact === 'critical' || violation.impact === 'serious').map((violation) => `docked: ${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`))
    expect(found).toEqual([])
    expect(errors).toEqual([])
  })
}
