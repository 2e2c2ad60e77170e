import { inflateSync } from 'node:zlib'

/*
 * The text of a pdfkit file as it is seen: every string drawn, mapped back
 * to characters through its font's ToUnicode map, and the strings on one
 * baseline joined left to right. What a reader's eye (not a copy-paste)
 * meets, so a right-to-left line comes out in its seen order. Enough PDF for
 * pdfkit's own output (uncompressed dictionaries, Type0 fonts), no more.
 */

interface PdfObject {
  dictionary: string
  stream: Buffer | null
}

function objectsOf(file: Buffer): Map<string, PdfObject> {
  const text = file.toString('latin1')
  const objects = new Map<string, PdfObject>()
  for (const match of text.matchAll(/(\d+) 0 obj\s*/g)) {
    const start = match.index + match[0].length
    const end = text.indexOf('endobj', start)
    const body = text.slice(start, end)
    const at = body.search(/stream\r?\n/)
    if (at < 0) {
      objects.set(match[1]!, { dictionary: body, stream: null })
      continue
    }
    const dictionary = body.slice(0, at)
    const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1] ?? 0)
    const from = start + at + (/stream\r\n/.test(body.slice(at, at + 8)) ? 8 : 7)
    const raw = file.subarray(from, from + length)
    const stream = dictionary.includes('/FlateDecode') ? inflateSync(raw) : raw
    objects.set(match[1]!, { dictionary, stream })
  }
  return objects
}

/** Glyph id → characters, from a ToUnicode CMap's ranges of arrays (as pdfkit writes them). */
function unicodeOf(cmap: string): Map<number, string> {
  const map = new Map<number, string>()
  for (const range of cmap.matchAll(/<([0-9a-f]{4})> <[0-9a-f]{4}> \[([^\]]*)\]/gi)) {
    let gid = Number.parseInt(range[1]!, 16)
    for (const entry of range[2]!.matchAll(/<([^>]*)>/g)) {
      const units = entry[1]!.split(' ').map((hex) => Number.parseInt(hex, 16))
      map.set(gid++, String.fromCharCode(...units))
    }
  }
  return map
}

/** The file's lines as seen, page after page, top to bottom. */
export function pdfLines(file: Buffer): string[] {
  const objects = objectsOf(file)
  const fonts = new Map<string, Map<number, string>>()
  const pages: string[][] = []
  for (const object of objects.values()) {
    for (const [, name, ref] of object.dictionary.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(ref!)?.dictionary ?? '')?.[1]
      const cmap = toUnicode && objects.get(toUnicode)?.stream
      if (cmap) fonts.set(name!, unicodeOf(cmap.toString('latin1')))
    }
  }
  for (const object of objects.values()) {
    if (!/\/Type \/Page\b/.test(object.dictionary)) continue
    const content = objects.get(/\/Contents (\d+) 0 R/.exec(object.dictionary)?.[1] ?? '')
    const drawn: { x: number; y: number; text: string }[] = []
    const stream = content?.stream?.toString('latin1') ?? ''
    for (const block of stream.matchAll(/BT\n([\s\S]*?)\nET/g)) {
      const place = /([\d.-]+) ([\d.-]+) Tm/.exec(block[1]!)
      const font = fonts.get(/\/(F\d+) [\d.]+ Tf/.exec(block[1]!)?.[1] ?? '')
      if (!place || !font) continue
      let text = ''
      for (const hex of block[1]!.matchAll(/<([0-9a-f]+)>/gi)) {
        for (const gid of hex[1]!.match(/.{4}/g) ?? [])
          text += font.get(Number.parseInt(gid, 16)) ?? ''
      }
      drawn.push({ x: Number(place[1]), y: Math.round(Number(place[2])), text })
    }
    const rows = new Map<number, typeof drawn>()
    for (const piece of drawn) rows.set(piece.y, [...(rows.get(piece.y) ?? []), piece])
    pages.push(
      [...rows.entries()]
        // PDF space: y grows upwards.
        .sort(([a], [b]) => b - a)
        .map(([, pieces]) =>
          pieces
            .sort((a, b) => a.x - b.x)
            .map((piece) => piece.text)
            .join(''),
        ),
    )
  }
  return pages.flat()
}
