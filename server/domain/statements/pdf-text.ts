import { type Direction, drawnPieces, hasRightToLeft } from './bidi.ts'
import { PAGE, type Pdf } from './pdf-kit.ts'

/*
 * Text on a statement's or a receipt's page in the document's direction.
 * Boxes are given as a left-to-right page has them; a right-to-left document
 * (Arabic, Persian) mirrors each box across the page and swaps its
 * alignment, so columns and labels change sides. A line with right-to-left
 * letters is wrapped here (pdfkit's wrapping knows no bidi) and each line
 * drawn in the order it is seen (bidi.ts); any other text is pdfkit's, as
 * before.
 */

export interface Box {
  width: number
  align?: 'left' | 'right'
  /** OpenType features ("tnum" for figures in columns). */
  features?: PDFKit.Mixins.OpenTypeFeatures[]
  /** false: one line, whatever its length. */
  lineBreak?: boolean
  /** Data in its own direction (a name, an address): its first letter's, not the document's. */
  own?: boolean
}

export interface Writer {
  readonly direction: Direction
  /** Writes `text` in the box at (x, y); answers the y below it (pdfkit's doc.y too). */
  text(text: string, x: number, y: number, box: Box): number
  /** The height `text` takes in the box. */
  height(text: string, box: Box): number
  /** Where a box at `x`, `width` wide, sits on this document's page. */
  x(x: number, width: number): number
}

export function writer(doc: Pdf, direction: Direction): Writer {
  const rtl = direction === 'rtl'
  const placed = (x: number, width: number) => (rtl ? PAGE.width - x - width : x)
  const aligned = (align: Box['align']): Box['align'] =>
    rtl ? (align === 'right' ? 'left' : 'right') : align
  const ours = (text: string) => rtl || hasRightToLeft(text)
  const lineHeight = () => doc.currentLineHeight(true)

  return {
    direction,
    x: placed,
    text(text, x, y, box) {
      const left = placed(x, box.width)
      const align = aligned(box.align)
      if (!ours(text)) {
        doc.text(text, left, y, {
          width: box.width,
          align,
          features: box.features,
          lineBreak: box.lineBreak,
        })
        return doc.y
      }
      const features = box.features ?? []
      let at = y
      for (const line of lines(doc, text, box)) {
        const pieces = drawnPieces(line, box.own ? 'auto' : direction)
        const widths = pieces.map((piece) => doc.widthOfString(piece, { features }))
        const total = widths.reduce((sum, width) => sum + width, 0)
        let cursor = align === 'right' ? left + box.width - total : left
        for (const [index, piece] of pieces.entries()) {
          doc.text(piece, cursor, at, { lineBreak: false, features })
          cursor += widths[index]!
        }
        at += lineHeight()
      }
      doc.x = left
      doc.y = at
      return at
    },
    height(text, box) {
      if (!ours(text)) return doc.heightOfString(text, { width: box.width, features: box.features })
      return lines(doc, text, box).length * lineHeight()
    },
  }
}

/** The lines `text` breaks into in the box: at spaces, and inside a word longer than the box. */
function lines(doc: Pdf, text: string, box: Box): string[] {
  if (box.lineBreak === false) return text.split('\n')
  const fits = (line: string) =>
    doc.widthOfString(line.trimEnd(), { features: box.features }) <= box.width
  const result: string[] = []
  for (const paragraph of text.split('\n')) {
    let line = ''
    for (const word of paragraph.split(/(?<= )/)) {
      if (line && !fits(line + word)) {
        result.push(line.trimEnd())
        line = ''
      }
      line += word
      while (!fits(line) && line.length > 1) {
        let cut = line.length - 1
        while (cut > 1 && !fits(line.slice(0, cut))) cut--
        result.push(line.slice(0, cut))
        line = line.slice(cut)
      }
    }
    result.push(line.trimEnd())
  }
  return result
}
