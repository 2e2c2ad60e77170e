import { readFile } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import type { Kysely } from 'kysely'
import type { Address } from '../../../contract/user.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { BankingProvider } from '../../providers/banking/banking.ts'
import { findCurrenciesByUuid } from '../catalog/repository.ts'
import { accountLast4 } from '../fiat-accounts/rules.ts'
import type { Owner } from '../owner.ts'
import * as repo from './repository.ts'
import { addUp, type CurrencySection, entrySource, type Movement, walletLast4 } from './rules.ts'
import {
  groupedIban,
  type ItemWords,
  type Language,
  label,
  labelsOf,
  movementDescription,
} from './wording.ts'

/*
 * Everything a statement file shows, read once from the ledger (balances and
 * movements of the scope's accounts), the activity feed (what each movement
 * was, in people's words), the person's identity and the tenant: the
 * renderers only lay it out.
 */

export interface CurrencyMeta {
  uuid: string
  code: string
  chain: string | null
  decimals: number
  fiat: boolean
}

export interface DescribedMovement extends Movement {
  description: string
  activityId: string | null
}

export interface StatementDocument {
  language: Language
  timeZone: string
  code: string
  verifyUrl: string
  issuedAt: Date
  period: { from: Date; to: Date }
  tenant: { name: string; color: string; logo: Buffer | null }
  holder: { name: string; address: string[] }
  account: { title: string; lines: [string, string][]; note: string | null }
  sections: (CurrencySection<DescribedMovement> & { meta: CurrencyMeta })[]
}

/** Which accounts a statement covers, and how its header names them. */
export interface ScopeLedger {
  accounts: string[]
  /** Currencies shown even without a balance or a movement (a fiat account's own). */
  always: string[]
  account: StatementDocument['account']
}

export interface StatementScopeRef {
  type: 'wallet' | 'fiat_account' | 'card'
  id: string
}

/** The scope's ledger accounts and header, or undefined when it is not the owner's. */
export async function scopeLedger(
  db: Kysely<DB>,
  owner: Owner,
  scope: StatementScopeRef,
  language: Language,
  bank: Pick<BankingProvider, 'bic' | 'bankName'>,
): Promise<(ScopeLedger & { last4: string }) | undefined> {
  const words = labelsOf(language)
  if (scope.type === 'wallet') {
    const wallet = await db
      .selectFrom('wallets')
      .select(['id', 'type'])
      .where('tenant_id', '=', owner.tenantId)
      .where('user_id', '=', owner.userId)
      .where('id', '=', scope.id)
      .executeTakeFirst()
    if (!wallet) return undefined
    const accounts = await repo.walletStatementAccounts(db, owner.tenantId, wallet.id)
    const type = wallet.type === 'personal' || wallet.type === 'trading' ? wallet.type : 'other'
    return {
      accounts: accounts.map((account) => account.id),
      always: [],
      last4: walletLast4(wallet.id),
      account: {
        title: words.walletTypes[type],
        lines: [[words.wallet, wallet.id]],
        note: null,
      },
    }
  }
  const cardRow = scope.type === 'card' ? await repo.ownedCard(db, owner, scope.id) : undefined
  if (scope.type === 'card' && !cardRow) return undefined
  const accountId = cardRow ? cardRow.fiat_account_id : scope.id
  const fiat = await repo.fiatAccountLedger(db, owner, accountId)
  if (!fiat) return undefined
  const last4 = cardRow?.last4 ?? fiat.iban?.slice(-4) ?? accountLast4(fiat.id)
  const lines: [string, string][] = fiat.iban
    ? [
        [words.iban, groupedIban(fiat.iban)],
        [words.bic, bank.bic],
        [words.bank, bank.bankName],
      ]
    : []
  lines.push([words.currency, fiat.currency])
  return {
    accounts: [fiat.ledger_account_id, fiat.hold_ledger_account_id].filter(
      (id): id is string => id !== null,
    ),
    always: [fiat.currency_uuid],
    last4,
    account: {
      title: cardRow
        ? label(words.card, { last4 })
        : label(words.fiatAccount, { last4: fiat.iban?.slice(-4) ?? accountLast4(fiat.id) }),
      lines,
      note: cardRow ? words.cardAccount : null,
    },
  }
}

/** The person's name and address lines, as their identity has them. */
export function holderLines(holder: {
  first_name: string | null
  last_name: string | null
  address: Address | null
}): StatementDocument['holder'] {
  const address = holder.address
  return {
    name: [holder.first_name, holder.last_name].filter(Boolean).join(' ') || '–',
    address: address
      ? [
          address.line1,
          address.line2 ?? '',
          [address.postal_code, address.city].filter(Boolean).join(' '),
          [address.state ?? '', address.country].filter(Boolean).join(', '),
        ].filter((line) => line.trim() !== '')
      : [],
  }
}

/**
 * The period's sections: per currency the opening balance, every movement
 * with its words, and the closing balance.
 */
export async function statementSections(
  db: Kysely<DB>,
  owner: Owner,
  scope: ScopeLedger,
  period: { from: Date; to: Date },
  language: Language,
): Promise<StatementDocument['sections']> {
  const [openings, rows] = await Promise.all([
    repo.balancesAt(db, scope.accounts, period.from),
    repo.movementsIn(db, scope.accounts, period),
  ])
  const sources = rows.map((row) => entrySource(row.idempotency_key))
  const items = await repo.itemsOfSources(db, owner, sources)
  const itemIds = rows.map((_, i) => {
    const key = repo.sourceKey(sources[i]!)
    return key === undefined ? undefined : items.get(key)
  })
  const words = new Map<string, ItemWords>(
    (
      await repo.itemWords(
        db,
        owner,
        itemIds.filter((id): id is string => id !== undefined),
      )
    ).map((row) => [row.id, row]),
  )
  const movements: DescribedMovement[] = rows.map((row, i) => {
    const source = sources[i]!
    const activityId = itemIds[i] ?? null
    return {
      entryId: row.id,
      bookedAt: row.created_at,
      currency: row.currency_uuid,
      amount: row.amount,
      activityId,
      description: movementDescription(language, activityId ? words.get(activityId) : undefined, {
        refund: source.kind === 'card_transaction' && source.refund,
        entryKind: row.kind,
      }),
    }
  })
  const uuids = [
    ...new Set([...openings.keys(), ...movements.map((m) => m.currency), ...scope.always]),
  ]
  const currencies = (uuids.length === 0 ? [] : await findCurrenciesByUuid(db, uuids)).sort(
    (a, b) => a.sort_order - b.sort_order,
  )
  const meta = new Map(
    currencies.map((currency) => [
      currency.uuid,
      {
        uuid: currency.uuid,
        code: currency.code,
        chain: currency.chain,
        decimals: currency.decimals,
        fiat: currency.chain === null,
      },
    ]),
  )
  return addUp(
    openings,
    movements,
    currencies.map((currency) => currency.uuid),
    scope.always,
  ).map((section) => ({ ...section, meta: meta.get(section.currency)! }))
}

/** PNG and JPEG start with these: the only images a PDF embeds as they are. */
const IMAGE_MAGIC = [Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from([0xff, 0xd8, 0xff])]

/**
 * The tenant's logo from the built app (a path on the app's own origin,
 * tenants/rules.ts), else the app's icon; null when neither is a PNG or JPEG
 * there (an SVG logo: the header then sets the tenant's name alone).
 */
export async function tenantLogo(distDir: string, logoUrl: string | null): Promise<Buffer | null> {
  const root = resolve(distDir)
  for (const path of [logoUrl, '/icons/icon-192.png']) {
    if (!path?.startsWith('/')) continue
    const file = resolve(root, `.${decodeURIComponent(path.split(/[?#]/)[0]!)}`)
    if (!file.startsWith(root + sep)) continue
    const bytes = await readFile(file).catch(() => null)
    if (bytes && IMAGE_MAGIC.some((magic) => bytes.subarray(0, magic.length).equals(magic))) {
      return bytes
    }
  }
  return null
}
