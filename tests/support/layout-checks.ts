import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

/*
 * What tests/e2e/layout.test.ts looks for on a screen as it is: sideways overflow and where it
 * comes from, words cut or squeezed, the phone's header height, the navigation's five
 * destinations, and axe-core's serious and critical findings.
 */

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

interface Findings {
  scrollWidth: number
  innerWidth: number
  /** Elements of main whose right edge is past the viewport's (and not clipped by a scroller). */
  sticking: string[]
  headerHeight: number | undefined
  /** Words the screen cuts, hides or squeezes where they must read whole (issue 27). */
  cut: string[]
}

/** What the screen shows that it should not: sideways overflow, and where it comes from. */
function measure(page: Page): Promise<Findings> {
  return page.evaluate(() => {
    const width = window.innerWidth
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
        element.className && typeof element.className === 'string'
          ? `.${element.className.trim().split(/\s+/).join('.')}`
          : ''
      } "${(element.textContent ?? '').trim().slice(0, 40)}"`
    /** Inside a box that clips or scrolls sideways, within the viewport: not sticking out. */
    const clipped = (element: Element) => {
      for (
        let box = element.parentElement;
        box && box.tagName !== 'MAIN';
        box = box.parentElement
      ) {
        const style = getComputedStyle(box)
        if (style.overflowX !== 'visible' && box.getBoundingClientRect().right <= width + 0.5) {
          return true
        }
      }
      return false
    }
    const main = document.querySelector('main')
    const sticking = [...(main?.querySelectorAll('*') ?? [])]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        if (box.width === 0 || box.height === 0) return false
        return box.right > width + 0.5 && !clipped(element)
      })
      .map(describe)
    const header = document.querySelector('header.topbar')
    const cut: string[] = []
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
    }
    // Labels cut with an ellipsis: a tab, a card's action, a name beside a count, an amount.
    for (const element of document.querySelectorAll('body *')) {
      if (!shown(element) || getComputedStyle(element).textOverflow !== 'ellipsis') continue
      if (element.closest('[data-may-cut]')) continue
      if (
        element.scrollWidth > element.clientWidth ||
        element.scrollHeight > element.clientHeight + 1
      ) {
        cut.push(`cut: ${describe(element)}`)
      }
    }
    // A placeholder wider than its field.
    const canvas = document.createElement('canvas').getContext('2d')!
    for (const input of document.querySelectorAll<HTMLInputElement>('main input[placeholder]')) {
      if (!shown(input)) continue
      const style = getComputedStyle(input)
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const room =
        input.clientWidth -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight)
      if (canvas.measureText(input.placeholder).width > room + 1) {
        cut.push(`placeholder cut: ${describe(input)} "${input.placeholder}"`)
      }
    }
    // An IBAN shown as one run of characters: unreadable, and broken anywhere.
    for (const code of document.querySelectorAll('main code')) {
      if (shown(code) && /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(code.textContent ?? '')) {
        cut.push(`IBAN not in fours: ${describe(code)}`)
      }
    }
    // A line broken inside a group of four (an IBAN, an address shown grouped).
    for (const code of document.querySelectorAll('main code')) {
      const text = code.textContent ?? ''
      if (!shown(code) || !/^[A-Z0-9]{4}( [A-Z0-9]{1,4})+$/.test(text)) continue
      const node = [...code.childNodes].find((child) => child.nodeType === Node.TEXT_NODE)
      if (!node) continue
      let at = 0
      for (const group of text.split(' ')) {
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + group.length)
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
        if (lines.size > 1) cut.push(`group "${group}" broken across lines: ${describe(code)}`)
        at += group.length + 1
      }
    }
    // A value squeezed beside its term (a details list's value narrower than a short word).
    for (const value of document.querySelectorAll('main .details dd')) {
      if (shown(value) && value.getBoundingClientRect().width < 56) {
        cut.push(`squeezed: ${describe(value)}`)
      }
    }
    // Content a sideways scroller hides on a phone: what it holds must fit.
    for (const scroller of document.querySelectorAll('main .dev-table-scroll')) {
      if (shown(scroller) && scroller.scrollWidth > scroller.clientWidth + 1) {
        cut.push(`hidden sideways: ${describe(scroller)}`)
      }
    }
    // An order's amount spilling out of its box (on either side: it is aligned to the end).
    for (const child of document.querySelectorAll('main .order-row-side > *')) {
      const box = child.parentElement?.getBoundingClientRect()
      const own = child.getBoundingClientRect()
      if (shown(child) && box && (own.left < box.left - 0.5 || own.right > box.right + 0.5)) {
        cut.push(`spills out of its box: ${describe(child)}`)
      }
    }
    return {
      cut,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: width,
      sticking,
      headerHeight:
        header && getComputedStyle(header).display !== 'none'
          ? header.getBoundingClientRect().height
          : undefined,
    }
  })
}

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/** axe-core's serious and critical findings on the screen as it is. */
export async function axeFindings(page: Page): Promise<string[]> {
  const injected = await page.evaluate(() => 'axe' in window)
  if (!injected) await page.addScriptTag({ path: AXE })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: AxeViolation[]
    }
    return result.violations
  })
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    )
}

export interface Navigation {
  label: string
  /** Home, Cards, Move money, Activity, Profile in the screen's language. */
  five: string[]
}

/** Everything wrong with the current screen, as lines; empty when it holds. */
export async function judge(page: Page, phone: boolean, nav: Navigation | undefined) {
  const problems: string[] = []
  const found = await measure(page)
  if (found.scrollWidth > found.innerWidth) {
    problems.push(`scrolls sideways: ${found.scrollWidth} > ${found.innerWidth}`)
  }
  for (const element of found.sticking.slice(0, 5)) problems.push(`sticks out: ${element}`)
  problems.push(...found.cut.slice(0, 8))
  if (phone && found.headerHeight !== undefined && found.headerHeight > 72) {
    problems.push(`header is ${found.headerHeight} px high`)
  }
  if (nav) {
    const names = await page
      .getByRole('navigation', { name: nav.label, exact: true })
      .getByRole('link')
      .allTextContents()
    for (const destination of nav.five) {
      if (!names.includes(destination)) problems.push(`navigation lacks ${destination}`)
    }
  }
  problems.push(...(await axeFindings(page)))
  return problems
}
