import { fromMinor } from '../../../contract/money.ts'
import type { StatementDocument } from './statement-data.ts'

/*
 * A statement for spreadsheets (CSV, RFC 4180) and for programs (JSON): the
 * same figures as the PDF, amounts as exact decimal strings, times in ISO
 * 8601 UTC. Each carries the statement's code, so its hash is its own.
 */

const CSV_HEADER = [
  'statement_code',
  'currency',
  'chain',
  'row',
  'booked_at',
  'description',
  'amount',
  'balance',
  'entry_id',
  'activity_id',
]

/** A field quoted when it must be (comma, quote, line break), its quotes doubled. */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

/**
 * One row per movement between an `opening` and a `closing` row per currency
 * (their `balance` is the balance then, `amount` empty): what an accountant
 * sums to check it. CRLF line ends.
 */
export function renderStatementCsv(document: StatementDocument): Buffer {
  const lines = [CSV_HEADER.join(',')]
  for (const section of document.sections) {
    const { code, chain, decimals } = section.meta
    const money = (minor: bigint) => fromMinor(minor, decimals)
    const row = (cells: string[]) =>
      lines.push([document.code, code, chain ?? '', ...cells].map(field).join(','))
    row(['opening', document.period.from.toISOString(), '', '', money(section.opening), '', ''])
    for (const line of section.lines) {
      row([
        'movement',
        line.movement.bookedAt.toISOString(),
        line.movement.description,
        money(line.movement.amount),
        money(line.balance),
        line.movement.entryId,
        line.movement.activityId ?? '',
      ])
    }
    row(['closing', document.period.to.toISOString(), '', '', money(section.closing), '', ''])
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')
}

/** The whole document as JSON, two-space indented. */
export function renderStatementJson(document: StatementDocument): Buffer {
  const body = {
    code: document.code,
    issued_at: document.issuedAt.toISOString(),
    from: document.period.from.toISOString(),
    to: document.period.to.toISOString(),
    holder: document.holder,
    account: {
      title: document.account.title,
      details: Object.fromEntries(document.account.lines),
    },
    currencies: document.sections.map((section) => {
      const money = (minor: bigint) => fromMinor(minor, section.meta.decimals)
      return {
        currency: section.meta.code,
        chain: section.meta.chain,
        opening_balance: money(section.opening),
        money_in: money(section.moneyIn),
        money_out: money(section.moneyOut),
        closing_balance: money(section.closing),
        movements: section.lines.map((line) => ({
          booked_at: line.movement.bookedAt.toISOString(),
          description: line.movement.description,
          amount: money(line.movement.amount),
          balance: money(line.balance),
          entry_id: line.movement.entryId,
          activity_id: line.movement.activityId,
        })),
      }
    }),
  }
  return Buffer.from(`${JSON.stringify(body, null, 2)}\n`, 'utf8')
}
