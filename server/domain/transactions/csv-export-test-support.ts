/** What the CSV export tests share: a strict reader of the file, and the export's address. */

/** RFC 4180, strictly: every record ends with CRLF; a field is bare or quoted with "" inside. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        const quote = text.indexOf('"', i)
        if (quote < 0) throw new Error('unterminated quoted field')
        field += text.slice(i, quote)
        i = quote + 1
        if (text[i] !== '"') break
        field += '"'
        i++
      }
    } else {
      const end = text.slice(i).search(/,|\r\n/)
      if (end < 0) throw new Error('a record without CRLF')
      field = text.slice(i, i + end)
      if (/["\r\n]/.test(field)) throw new Error(`unquoted field ${JSON.stringify(field)}`)
      i += end
    }
    record.push(field)
    if (text[i] === ',') i++
    else if (text.startsWith('\r\n', i)) {
      records.push(record)
      record = []
      i += 2
    } else throw new Error(`junk after field at ${i}`)
  }
  return records
}

export const csvUrl = (walletId: string, query = '') =>
  `/api/v1/wallets/transactions/${walletId}/csv${query}`

/** 12:MM on 1 March 2025, UTC: records a few minutes apart. */
export const at = (minute: number) => new Date(Date.UTC(2025, 2, 1, 12, minute))
