import type { ActivityDetail } from '../../../contract/activity.ts'
import { toMinor } from '../../../contract/money.ts'
import type { MoneySide } from '../../../contract/orders.ts'
import { CONTENT_WIDTH, drawFooters, drawHeader, INK, newPdf, PAGE } from './pdf-kit.ts'
import { writer } from './pdf-text.ts'
import { isRightToLeft } from './statement-words.ts'
import {
  formatAmount,
  formatDateTime,
  itemTitle,
  type Language,
  label,
  labelsOf,
  statusWord,
} from './wording.ts'

/*
 * A receipt: one activity item as a one-page PDF to keep or share — what it
 * was, when, how it stands, every amount, whom it went to, and the
 * references that find it again. The same PDF stack as statements, mirrored
 * right to left in Arabic and Persian.
 */

export interface ReceiptContext {
  language: Language
  timeZone: string
  tenant: { name: string; color: string; logo: Buffer | null }
}

const money = (language: Language, side: MoneySide, signed = false) =>
  formatAmount(
    language,
    toMinor(side.amount, side.decimals),
    { code: side.currency, decimals: side.decimals, fiat: side.chain === null },
    { signed },
  )

/** The item's label and value lines, in the order a receipt reads. */
export function receiptLines(item: ActivityDetail, context: ReceiptContext): [string, string][] {
  const { language, timeZone } = context
  const words = labelsOf(language)
  const lines: [string, string | null | undefined][] = [
    [
      words.status,
      // A card payment under way is authorised, as the app says it.
      statusWord(
        language,
        item.type === 'card_purchase' && item.status === 'pending' ? 'authorized' : item.status,
      ),
    ],
    [words.when, formatDateTime(language, new Date(item.created_at), timeZone)],
    [words.paid, money(language, item.amount)],
    [words.fee, item.fee && money(language, item.fee)],
    [words.total, item.fee && money(language, item.total)],
    [words.received, item.received && money(language, item.received)],
    [
      words.rate,
      item.rate && item.received
        ? `1 ${item.amount.currency} = ${item.rate} ${item.received.currency}`
        : null,
    ],
    [
      words.merchant,
      item.merchant &&
        [item.merchant.name, item.merchant.city, item.merchant.country].filter(Boolean).join(', '),
    ],
    [words.counterparty, item.counterparty_name],
    [words.address, item.address],
    [words.reference, item.reference],
    [words.txHash, item.tx_hash],
    [words.cardUsed, item.card_last4 && `·· ${item.card_last4}`],
    [words.id, item.id],
  ]
  return lines.filter(
    (line): line is [string, string] => typeof line[1] === 'string' && line[1] !== '',
  )
}

/** The receipt's PDF bytes. */
export async function renderReceipt(
  item: ActivityDetail,
  context: ReceiptContext,
): Promise<Buffer> {
  const { language } = context
  const words = labelsOf(language)
  const title = itemTitle(language, {
    type: item.type,
    direction: item.direction,
    counterparty_name: item.counterparty_name,
    merchant_name: item.merchant?.name ?? null,
    card_last4: item.card_last4,
    address: item.address,
    fee_kind: item.fee_kind,
    currency: item.amount.currency,
    chain: item.amount.chain,
    received_currency: item.received?.currency ?? null,
  })
  const { doc, bytes } = newPdf({
    title: `${words.receipt}: ${title}`,
    author: context.tenant.name,
    language,
  })
  const write = writer(doc, isRightToLeft(language) ? 'rtl' : 'ltr')
  let y = drawHeader(
    doc,
    write,
    context.tenant,
    words.receipt,
    formatDateTime(language, new Date(item.created_at), context.timeZone),
  )
  doc.font('bold').fontSize(16).fillColor(INK.text)
  y = write.text(title, PAGE.left, y, { width: CONTENT_WIDTH }) + 4
  const sign = item.direction === 'in' ? true : undefined
  const headline =
    item.direction === 'out'
      ? `−${money(language, item.total)}`
      : money(language, item.received ?? item.amount, sign)
  doc
    .font('bold')
    .fontSize(22)
    .fillColor(item.direction === 'in' ? '#1b7f3b' : INK.text)
  y = write.text(headline, PAGE.left, y, { width: CONTENT_WIDTH }) + 16
  const labelWidth = 150
  for (const [name, value] of receiptLines(item, context)) {
    doc.font('body').fontSize(9).fillColor(INK.muted)
    write.text(name, PAGE.left, y, { width: labelWidth - 10 })
    doc.font('body').fontSize(10).fillColor(INK.text)
    const below = write.text(value, PAGE.left + labelWidth, y, {
      width: CONTENT_WIDTH - labelWidth,
    })
    y = Math.max(below, y + 12) + 8
    doc
      .moveTo(PAGE.left, y - 4)
      .lineTo(PAGE.left + CONTENT_WIDTH, y - 4)
      .lineWidth(0.5)
      .strokeColor(INK.rule)
      .stroke()
  }
  drawFooters(doc, write, context.tenant.name, (page, pages) =>
    label(words.page, { page: String(page), pages: String(pages) }),
  )
  doc.end()
  return bytes
}
