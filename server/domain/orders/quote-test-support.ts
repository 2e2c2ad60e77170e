import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import type { ChainId } from '../../../contract/catalog.ts'
import type { DestinationType } from '../../../contract/counterparties.ts'
import type { FiatAccountStatus, SubAccountType } from '../../../contract/fiat-accounts.ts'
import type { QuoteQuery } from '../../../contract/orders.ts'
import type { DB } from '../../infra/db/schema.ts'
import { headers } from '../../test-support.ts'
import { insertAccounts } from '../ledger/repository.ts'

/** Fixed catalogue uuids (migration 0004). */
export const CURRENCY = {
  BTC: '68e31acb-683c-4237-a1d1-50edfa265bdf',
  ETH: '442c4a1d-5c86-4c6c-bec6-7c8f3cfd7433',
  TRX: '9f847a70-d56d-41fb-97f2-52e351b89a1e',
  SOL: 'f4ef2e7b-a437-4e61-9ba5-0ee46d0932cf',
  USDT_ETH: '2e56e676-1ddf-47f3-8f7f-3b736ad1e971',
  USDT_TRON: 'b3115d89-344b-4d51-abfa-76863eddec04',
  USDC_ETH: 'f4565265-a107-4329-ba7f-48d536e696a8',
  EUR: 'fc3b2351-726b-4cca-abda-4cfdcf917b0b',
  USD: '23a118db-510b-4942-ae1f-19d4bbe14324',
  GBP: '4c93668a-8153-4866-8347-affca6293542',
} as const

/** `GET /api/v1/orders/calc` with the raw token v1 takes. */
export function calc(
  app: FastifyInstance,
  token: string,
  query: Partial<Record<keyof QuoteQuery, string>>,
  extraHeaders: Record<string, string> = {},
) {
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  return app.inject({
    method: 'GET',
    url: `/api/v1/orders/calc?${search}`,
    headers: headers({ authorization: token, ...extraHeaders }),
  })
}

/** A card program of the tenant, straight in the database (the issuing area owns the API). */
export async function insertCardProgram(
  db: Kysely<DB>,
  tenantId: string,
  overrides: {
    currency?: string
    subAccountType?: SubAccountType
    topUpPercent?: string
    status?: 'ACTIVE' | 'ARCHIVED'
    name?: string
  } = {},
) {
  const id = uuidv7()
  await db
    .insertInto('card_programs')
    .values({
      id,
      tenant_id: tenantId,
      name: overrides.name ?? 'Test prepaid',
      status: overrides.status ?? 'ACTIVE',
      currency_uuid: overrides.currency ?? CURRENCY.EUR,
      form_factors: JSON.stringify(['VIRTUAL']),
      card_type: 'DEBIT',
      sub_account_type: overrides.subAccountType ?? 'prepaid',
      bin: '40001299',
      fee_top_up_percent: overrides.topUpPercent ?? '1',
    })
    .execute()
  return id
}

/**
 * A fiat account of `walletId` under a new program of its own, with its
 * ledger sub-account: what the fiat-accounts area creates, without its API.
 */
export async function insertFiatAccount(
  db: Kysely<DB>,
  tenantId: string,
  walletId: string,
  options: {
    currency?: string
    subAccountType?: SubAccountType
    topUpPercent?: string
    status?: FiatAccountStatus
  } = {},
) {
  const programId = await insertCardProgram(db, tenantId, {
    currency: options.currency,
    subAccountType: options.subAccountType,
    topUpPercent: options.topUpPercent,
    name: `Test ${options.subAccountType ?? 'prepaid'} account`,
  })
  const id = uuidv7()
  const ledgerAccountId = uuidv7()
  await db.transaction().execute(async (trx) => {
    await insertAccounts(trx, [{ id: ledgerAccountId, tenantId, kind: 'sub_account', walletId }])
    await trx
      .insertInto('fiat_accounts')
      .values({
        id,
        tenant_id: tenantId,
        wallet_id: walletId,
        program_id: programId,
        currency_uuid: options.currency ?? CURRENCY.EUR,
        sub_account_type: options.subAccountType ?? 'prepaid',
        status: options.status ?? 'ACTIVE',
        ledger_account_id: ledgerAccountId,
      })
      .execute()
  })
  return id
}

/**
 * Anna Schmidt, a counterparty of `walletId`, with one destination, straight
 * in the database (the counterparties area owns the API).
 */
export async function insertDestination(
  db: Kysely<DB>,
  tenantId: string,
  walletId: string,
  destination: {
    type: DestinationType
    iban?: string
    bic?: string
    chain?: ChainId
    address?: string
    targetWalletId?: string
  },
) {
  const counterpartyId = uuidv7()
  const id = uuidv7()
  await db
    .insertInto('counterparties')
    .values({
      id: counterpartyId,
      tenant_id: tenantId,
      wallet_id: walletId,
      type: 'INDIVIDUAL',
      first_name: 'Anna',
      last_name: 'Schmidt',
      country: 'DE',
    })
    .execute()
  await db
    .insertInto('counterparty_destinations')
    .values({
      id,
      tenant_id: tenantId,
      counterparty_id: counterpartyId,
      type: destination.type,
      iban: destination.iban ?? null,
      bic: destination.bic ?? null,
      chain: destination.chain ?? null,
      address: destination.address ?? null,
      target_wallet_id: destination.targetWalletId ?? null,
    })
    .execute()
  return { counterpartyId, destinationId: id }
}
