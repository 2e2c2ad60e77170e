import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../../contract/languages.ts'
import { drawnPieces, visualOrder } from './bidi.ts'
import { STATEMENT_WORDS } from './statement-words.ts'
import { formatAmount, movementDescription } from './wording.ts'

/** Every word of a table as [path, text], nested objects flattened ("labels.walletTypes.trading"). */
function entries(table: object, path = ''): [string, string][] {
  return Object.entries(table).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${path}${key}`, value]] : entries(value, `${path}${key}.`),
  )
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
const english = new Map(entries(STATEMENT_WORDS.en))

describe('a statement is worded in every language the app speaks', () => {
  it.each(LANGUAGES)(
    '%s: every key of the English table, worded, its placeholders kept',
    (language) => {
      const words = entries(STATEMENT_WORDS[language])
      expect(words.map(([path]) => path)).toEqual([...english.keys()])
      for (const [path, text] of words) {
        expect(text.trim(), path).not.toBe('')
        expect(placeholders(text), `${language} ${path}`).toEqual(placeholders(english.get(path)!))
      }
    },
  )

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    '%s: its own words, not English ones',
    (language) => {
      // Words these languages' banks write as English does ("Wallet" in German, "Merchant" in Indonesian).
      const shared = /^(IBAN|BIC|Status|Total|Bank|Wallet|Merchant)$/
      const same = entries(STATEMENT_WORDS[language]).filter(
        ([path, text]) => text === english.get(path) && !shared.test(text),
      )
      expect(same).toEqual([])
    },
  )

  it.each([
    ['uk', 'Повернення: Café Lisboa'],
    ['de', 'Erstattung: Café Lisboa'],
    ['ar', 'استرداد: Café Lisboa'],
    ['fa', 'استرداد: Café Lisboa'],
  ] as const)('%s refund: %s', (language, text) => {
    const item = {
      type: 'card_purchase' as const,
      direction: 'out' as const,
      counterparty_name: null,
      merchant_name: 'Café Lisboa',
      card_last4: null,
      address: null,
      fee_kind: null,
      currency: 'EUR',
      chain: null,
      received_currency: null,
    }
    expect(movementDescription(language, item, { refund: true, entryKind: 'x' })).toBe(text)
  })

  const btc = { code: 'BTC', decimals: 8, fiat: false }
  const eur = { code: 'EUR', decimals: 2, fiat: true }
  it.each([
    // Persian writes its own digits and decimal point ("٫"), as Intl does by default.
    // In Arabic and Persian an island of its own: the sign stays before the figures.
    ['fa', 150000000n, btc, '\u2066+۱٫۵\u00a0BTC\u2069'],
    ['uk', 150000000n, btc, '+1,5\u00a0BTC'],
    ['de', 123456789n, btc, '+1,23456789\u00a0BTC'],
    ['uk', 123450n, eur, '+1\u00a0234,50\u00a0EUR'],
    ['pt-BR', 123450n, eur, '+€\u00a01.234,50'],
  ] as const)('%s %s → %s', (language, minor, currency, text) => {
    expect(formatAmount(language, minor, currency, { signed: true })).toBe(text)
  })
})

describe('a line in the order it is seen (Unicode bidi)', () => {
  it.each([
    // Arabic and a number: the words right to left, the digits left to right.
    ['rtl', 'صفحة 1 من 3', '3 نم 1 ةحفص'],
    // Arabic and a Latin name: the name stays as written, on the left.
    ['rtl', 'من Lukas Becker', 'Lukas Becker نم'],
    ['rtl', 'IBAN: DE89 3704 0044', 'IBAN: DE89 3704 0044'],
    // Brackets mirrored, marks dropped.
    ['rtl', 'حركة أخرى (test_credit)', '(test_credit) ىرخأ ةكرح'],
    ['rtl', 'الرصيد \u200f1,234.50 €', '€ 1,234.50 ديصرلا'],
    // The arrow held right to left by its marks: "from USDT to BTC" read from the right.
    ['rtl', 'صرف USDT \u200f←\u200f BTC', 'BTC ← USDT فرص'],
    // Data in its own direction: an address begins with its number.
    ['auto', '10115 Berlin', '10115 Berlin'],
    ['rtl', '10115 Berlin', 'Berlin 10115'],
    // Pure Latin (or Cyrillic) is left as it is.
    ['ltr', 'Refund: Café Lisboa', 'Refund: Café Lisboa'],
    ['ltr', 'Возврат: Café Lisboa', 'Возврат: Café Lisboa'],
    // An Arabic merchant on an English statement.
    ['ltr', 'Refund: مقهى النخيل', 'Refund: ليخنلا ىهقم'],
  ] as const)('%s %s → %s', (direction, line, seen) => {
    expect(visualOrder(line, direction)).toBe(seen)
  })

  it.each([
    // fontkit shapes an Arabic piece in its logical order and reverses it itself.
    ['rtl', 'من Lukas Becker', ['Lukas Becker ', 'من']],
    ['rtl', 'صفحة 1 من 3', ['3 ', ' من', '1 ', 'صفحة']],
    ['rtl', 'رسوم إصدار البطاقة', ['رسوم إصدار البطاقة']],
    // Persian digits are Arabic script to fontkit: the piece given back whole, digits reversed.
    ['rtl', 'مانده ۱۲۳', ['مانده ۳۲۱']],
    ['ltr', 'Café Lisboa', ['Café Lisboa']],
  ] as const)('%s %s is drawn as %j', (direction, line, pieces) => {
    expect(drawnPieces(line, direction)).toEqual(pieces)
  })
})
