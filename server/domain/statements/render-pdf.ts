import {
  CONTENT_WIDTH,
  drawBlock,
  drawFooters,
  drawHeader,
  INK,
  newPdf,
  PAGE,
  type Pdf,
} from './pdf-kit.ts'
import { type Writer, writer } from './pdf-text.ts'
import { groupedCode } from './rules.ts'
import type { StatementDocument } from './statement-data.ts'
import { isRightToLeft } from './statement-words.ts'
import {
  formatAmount,
  formatDateTime,
  formatDay,
  type Labels,
  label,
  labelsOf,
  periodDays,
} from './wording.ts'

/*
 * A statement as a PDF a landlord or a bank reads: who and which account,
 * the period, then per currency the opening balance, every movement with its
 * running balance, the totals in and out and the closing balance; every page
 * numbered, with the code that checks it is genuine. Right to left (Arabic,
 * Persian) the page is mirrored: the date column on the right, the amounts on
 * the left.
 */

const COLUMNS = { date: 116, amount: 96, balance: 96 }
const DESCRIPTION = CONTENT_WIDTH - COLUMNS.date - COLUMNS.amount - COLUMNS.balance
const ROW_GAP = 5
/** How often rendering reports its progress (rows). */
const PROGRESS_EVERY = 200

/** Renders the document; `progress` hears the share done (0–1) now and then. */
export async function renderStatementPdf(
  document: StatementDocument,
  progress: (share: number) => Promise<void>,
): Promise<Buffer> {
  const words = labelsOf(document.language)
  const { doc, bytes } = newPdf({
    title: `${words.statement} ${groupedCode(document.code)}`,
    author: document.tenant.name,
    language: document.language,
  })
  const zone = document.timeZone
  const days = periodDays(document.period.from, document.period.to, zone)
  const periodText = `${formatDay(document.language, document.period.from, zone)} – ${formatDay(document.language, days.last, zone)}`
  const write = writer(doc, isRightToLeft(document.language) ? 'rtl' : 'ltr')
  const newPage = () => drawHeader(doc, write, document.tenant, words.statement, periodText)

  let y = newPage()
  const half = (CONTENT_WIDTH - 24) / 2
  const left = drawBlock(
    doc,
    write,
    PAGE.left,
    y,
    half,
    words.holder,
    document.holder.address,
    document.holder.name,
    true,
  )
  const right = drawBlock(
    doc,
    write,
    PAGE.left + half + 24,
    y,
    half,
    words.account,
    [
      ...document.account.lines.map(([name, value]) => `${name}: ${value}`),
      ...(document.account.note ? [document.account.note] : []),
    ],
    document.account.title,
  )
  y = Math.max(left, right) + 10
  y = drawBlock(doc, write, PAGE.left, y, CONTENT_WIDTH, words.period, [
    `${periodText} · ${words.issued} ${formatDateTime(document.language, document.issuedAt, zone)}`,
    label(words.times, { zone }),
  ])
  y += 12

  if (document.sections.length === 0) {
    doc.font('body').fontSize(10).fillColor(INK.muted)
    write.text(words.noCurrencies, PAGE.left, y, { width: CONTENT_WIDTH })
  }
  const rows = document.sections.reduce((sum, section) => sum + section.lines.length, 0)
  let done = 0
  const bottom = PAGE.height - PAGE.bottom
  for (const section of document.sections) {
    const money = (minor: bigint, signed = false) =>
      formatAmount(document.language, minor, section.meta, { signed })
    if (y + 120 > bottom) {
      doc.addPage()
      y = newPage()
    }
    const chain = section.meta.chain
    const heading = chain
      ? `${section.meta.code} · ${chain.charAt(0).toUpperCase()}${chain.slice(1)}`
      : section.meta.code
    y = drawSummary(doc, write, y, heading, [
      [words.opening, money(section.opening)],
      [words.moneyIn, money(section.moneyIn)],
      [words.moneyOut, money(-section.moneyOut)],
      [words.closing, money(section.closing)],
    ])
    if (section.lines.length === 0) {
      doc.font('body').fontSize(9.5).fillColor(INK.muted)
      y = write.text(words.nothing, PAGE.left, y, { width: CONTENT_WIDTH }) + 18
      continue
    }
    y = drawTableHead(doc, write, y, words)
    for (const [index, line] of section.lines.entries()) {
      const cells = [
        formatDateTime(document.language, line.movement.bookedAt, zone),
        line.movement.description,
        money(line.movement.amount, true),
        money(line.balance),
      ]
      doc.font('body').fontSize(8.5)
      const height =
        Math.max(
          write.height(cells[0]!, { width: COLUMNS.date - 6 }),
          write.height(cells[1]!, { width: DESCRIPTION - 6 }),
        ) +
        ROW_GAP * 2
      if (y + height > bottom) {
        doc.addPage()
        // A page that opens mid-table names its currency: the amounts alone may not.
        const top = newPage()
        doc.font('bold').fontSize(10).fillColor(INK.text)
        const below = write.text(label(words.continued, { code: heading }), PAGE.left, top, {
          width: CONTENT_WIDTH,
        })
        y = drawTableHead(doc, write, below + 6, words)
      }
      if (index % 2 === 1) doc.rect(PAGE.left, y, CONTENT_WIDTH, height).fill(INK.band)
      drawRow(doc, write, y + ROW_GAP, cells, line.movement.amount > 0n)
      y += height
      done++
      if (done % PROGRESS_EVERY === 0) await progress(done / rows)
    }
    y += 18
  }

  drawFooters(
    doc,
    write,
    label(words.verify, { url: document.verifyUrl, code: groupedCode(document.code) }),
    (page, pages) => label(words.page, { page: String(page), pages: String(pages) }),
  )
  doc.end()
  return bytes
}

/** The currency's heading and its four figures in a band. */
function drawSummary(
  doc: Pdf,
  write: Writer,
  y: number,
  code: string,
  figures: [string, string][],
): number {
  doc.font('bold').fontSize(12).fillColor(INK.text)
  const top = write.text(code, PAGE.left, y, { width: CONTENT_WIDTH }) + 4
  const width = CONTENT_WIDTH / figures.length
  doc.rect(PAGE.left, top, CONTENT_WIDTH, 40).fill(INK.band)
  for (const [i, [name, value]] of figures.entries()) {
    const x = PAGE.left + i * width + 8
    doc.font('body').fontSize(7.5).fillColor(INK.muted)
    write.text(name.toUpperCase(), x, top + 7, { width: width - 16, lineBreak: false })
    // A long crypto figure shrinks to its column rather than wrap.
    doc.font('bold').fontSize(10)
    const size = Math.min(10, (10 * (width - 16)) / Math.max(1, doc.widthOfString(value)))
    doc.fontSize(size).fillColor(INK.text)
    write.text(value, x, top + 20, { width: width - 16, lineBreak: false })
  }
  return top + 52
}

function drawTableHead(doc: Pdf, write: Writer, y: number, words: Labels): number {
  doc.font('bold').fontSize(8)
  drawCells(doc, write, y, [words.date, words.description, words.amount, words.balance], INK.muted)
  const below = y + 14
  doc
    .moveTo(PAGE.left, below)
    .lineTo(PAGE.left + CONTENT_WIDTH, below)
    .lineWidth(0.75)
    .strokeColor(INK.rule)
    .stroke()
  return below + 2
}

function drawRow(doc: Pdf, write: Writer, y: number, cells: string[], moneyIn: boolean) {
  doc.font('body').fontSize(8.5)
  // Money in is green, with its "+" as the cue that does not need colour.
  drawCells(doc, write, y, cells, INK.text, moneyIn ? '#1b7f3b' : INK.text)
}

/** Date, description (wrapping), amount and balance (right-aligned, in tabular figures). */
function drawCells(
  doc: Pdf,
  write: Writer,
  y: number,
  cells: readonly string[],
  ink: string,
  amountInk = ink,
) {
  let x = PAGE.left + 3
  doc.fillColor(ink)
  write.text(cells[0]!, x, y, { width: COLUMNS.date - 6 })
  x += COLUMNS.date
  write.text(cells[1]!, x, y, { width: DESCRIPTION - 6 })
  x += DESCRIPTION
  doc.fillColor(amountInk)
  write.text(cells[2]!, x, y, { width: COLUMNS.amount - 6, align: 'right', features: ['tnum'] })
  doc.fillColor(ink)
  x += COLUMNS.amount
  write.text(cells[3]!, x, y, { width: COLUMNS.balance - 6, align: 'right', features: ['tnum'] })
}
