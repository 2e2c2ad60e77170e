import bidiFactory from 'bidi-js'

/*
 * Lines of mixed direction put in the order they are seen (the Unicode
 * bidirectional algorithm, bidi-js), and cut into the pieces pdfkit is to
 * draw. pdfkit lays a string out left to right as given, except that fontkit
 * shapes a string whose first letters are Arabic (joined forms need the
 * logical order) and then reverses the whole string; so each piece is
 * handed over in the order fontkit turns into the one seen.
 */

export type Direction = 'ltr' | 'rtl'
/** A paragraph's direction: given, or `auto`, its first letter's (a name, an address). */
export type BaseDirection = Direction | 'auto'

const bidi = bidiFactory()

/** Marks, embeddings and isolates: they steer the algorithm and draw nothing. */
const CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
/** The scripts fontkit lays out right to left (its Script.direction). */
const RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u
/** A letter or digit of any other script: it makes fontkit lay a string left to right. */
const OTHER_SCRIPT = /[\p{L}\p{N}\p{M}]/u

/** Whether any of the text is in a script written right to left. */
export const hasRightToLeft = (text: string) => RTL_SCRIPT.test(text)

/**
 * The line's characters as seen, left to right, in a paragraph of
 * `direction`: right-to-left runs reversed and their brackets mirrored,
 * controls dropped. "من Anna 12" in Arabic reads "12 Anna نم" left to right.
 */
export function visualOrder(line: string, direction: BaseDirection): string {
  const levels = bidi.getEmbeddingLevels(line, direction)
  const order = Array.from(line, (_, index) => index)
  for (const [start, end] of bidi.getReorderSegments(line, levels)) {
    order.splice(start!, end! - start! + 1, ...order.slice(start!, end! + 1).reverse())
  }
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels)
  const chars: string[] = []
  for (const index of order) {
    const char = line[index]!
    if (CONTROLS.test(char)) continue
    // A pair reversed with its run keeps its surrogates in order.
    if (/[\udc00-\udfff]/.test(char) && chars.length && /[\ud800-\udbff]/.test(chars.at(-1)!)) {
      chars.splice(chars.length - 1, 0, char)
      continue
    }
    chars.push(mirrored.get(index) ?? char)
  }
  return chars.join('')
}

/**
 * The strings to draw one after another, left to right, so the line reads
 * as `visualOrder` says: the seen order cut where the script changes between
 * right to left and any other, a right-to-left piece given back reversed
 * (fontkit shapes it and reverses it again).
 */
export function drawnPieces(line: string, direction: BaseDirection): string[] {
  const pieces: { chars: string[]; rtl: boolean | null }[] = []
  for (const char of visualOrder(line, direction)) {
    const rtl = RTL_SCRIPT.test(char) ? true : OTHER_SCRIPT.test(char) ? false : null
    const last = pieces.at(-1)
    if (last && (rtl === null || last.rtl === null || last.rtl === rtl)) {
      last.chars.push(char)
      last.rtl ??= rtl
    } else {
      pieces.push({ chars: [char], rtl })
    }
  }
  return pieces.map((piece) => (piece.rtl ? piece.chars.reverse() : piece.chars).join(''))
}
