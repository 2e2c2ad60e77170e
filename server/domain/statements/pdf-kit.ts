import { createRequire } from 'node:module'
import PDFDocument from 'pdfkit'
import type { Writer } from './pdf-text.ts'

/*
 * The PDF stack statements and receipts share: pdfkit (text layout, pages,
 * font subsetting) with DejaVu Sans embedded — one TrueType file per weight
 * that covers Latin, Cyrillic, Greek, Arabic and Persian (dejavu-fonts-ttf,
 * docs/decisions.md), so a statement in any language the app grows into
 * needs no new font source. Only the glyphs a file uses are embedded.
 */

const require = createRequire(import.meta.url)
const FONTS = {
  body: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
}

/** A4 in points, and the margins every page keeps (the footer sits in the bottom one). */
export const PAGE = { width: 595.28, height: 841.89, left: 48, right: 48, top: 48, bottom: 64 }
export const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right

export const INK = { text: '#1a1d24', muted: '#5b6170', rule: '#d7dae0', band: '#f3f4f7' }

export type Pdf = PDFKit.PDFDocument

/**
 * A new document in the body font, its pages kept until the end (footers
 * number them), and a promise of its bytes once `doc.end()` is called.
 * `info` goes into the file's metadata.
 */
export function newPdf(info: { title: string; author: string; language: string }): {
  doc: Pdf
  bytes: Promise<Buffer>
} {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    bufferPages: true,
    // The body font from the start: pdfkit's default (Helvetica) would be read and never used.
    font: FONTS.body,
    lang: info.language,
    displayTitle: true,
    info: { Title: info.title, Author: info.author, Creator: info.author, Producer: info.author },
  })
  doc.registerFont('body', FONTS.body)
  doc.registerFont('bold', FONTS.bold)
  doc.font('body')
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const bytes = new Promise<Buffer>((done, fail) => {
    doc.on('end', () => done(Buffer.concat(chunks)))
    doc.on('error', fail)
  })
  return { doc, bytes }
}

/**
 * The header every page of a file begins with: the tenant's logo and name on
 * the left, the document's title and a line under it on the right (the other
 * way round right to left). Answers the y the content starts at.
 */
export function drawHeader(
  doc: Pdf,
  write: Writer,
  tenant: { name: string; color: string; logo: Buffer | null },
  title: string,
  subtitle: string,
): number {
  const top = PAGE.top
  let x = PAGE.left
  if (tenant.logo) {
    try {
      doc.image(tenant.logo, write.x(x, 32), top, { fit: [32, 32] })
      x += 42
    } catch {
      // A logo pdfkit cannot read: the name stands alone.
    }
  }
  doc.font('bold').fontSize(15).fillColor(tenant.color)
  write.text(tenant.name, x, top + 7, { width: CONTENT_WIDTH / 2, lineBreak: false })
  doc.font('bold').fontSize(15).fillColor(INK.text)
  write.text(title, PAGE.left + CONTENT_WIDTH / 2, top, {
    width: CONTENT_WIDTH / 2,
    align: 'right',
  })
  doc.font('body').fontSize(9).fillColor(INK.muted)
  write.text(subtitle, PAGE.left + CONTENT_WIDTH / 2, top + 21, {
    width: CONTENT_WIDTH / 2,
    align: 'right',
  })
  const y = top + 44
  doc
    .moveTo(PAGE.left, y)
    .lineTo(PAGE.left + CONTENT_WIDTH, y)
    .lineWidth(1.5)
    .strokeColor(tenant.color)
    .stroke()
  return y + 14
}

/**
 * "Label" above "value" lines, in a column: answers the y below it. `own`:
 * the lines are data in their own direction (a name, an address).
 */
export function drawBlock(
  doc: Pdf,
  write: Writer,
  x: number,
  y: number,
  width: number,
  heading: string,
  lines: readonly string[],
  first?: string,
  own = false,
): number {
  doc.font('body').fontSize(8).fillColor(INK.muted)
  let at = write.text(heading.toUpperCase(), x, y, { width }) + 2
  if (first) {
    doc.font('bold').fontSize(10.5).fillColor(INK.text)
    at = write.text(first, x, at, { width, own }) + 1
  }
  for (const line of lines) {
    doc.font('body').fontSize(9.5).fillColor(INK.text)
    at = write.text(line, x, at, { width, own }) + 1
  }
  return at
}

/**
 * Writes each page's footer once every page exists: `left` (the same on
 * each) and "Page n of N" on the right (mirrored right to left), in the
 * bottom margin.
 */
export function drawFooters(
  doc: Pdf,
  write: Writer,
  left: string,
  pageLabel: (page: number, pages: number) => string,
) {
  const range = doc.bufferedPageRange()
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i)
    // Text in the bottom margin would push a new page: lift the margin while writing it.
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const y = PAGE.height - PAGE.bottom + 22
    doc
      .moveTo(PAGE.left, y - 8)
      .lineTo(PAGE.left + CONTENT_WIDTH, y - 8)
      .lineWidth(0.5)
      .strokeColor(INK.rule)
      .stroke()
    doc.font('body').fontSize(7.5).fillColor(INK.muted)
    write.text(left, PAGE.left, y, { width: CONTENT_WIDTH - 90 })
    write.text(pageLabel(i - range.start + 1, range.count), PAGE.left + CONTENT_WIDTH - 90, y, {
      width: 90,
      align: 'right',
    })
    doc.page.margins.bottom = bottom
  }
}
