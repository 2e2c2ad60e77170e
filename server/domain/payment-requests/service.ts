import type { Kysely } from 'kysely'
import QRCode from 'qrcode'
import { v7 as uuidv7 } from 'uuid'
import { fromMinor } from '../../../contract/money.ts'
import type {
  CreatePaymentRequestBody,
  PaidRequest,
  PaymentRequest,
  PaymentRequestList,
  PaymentRequestView,
  PayRequestBody,
} from '../../../contract/payment-requests.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Owner } from '../owner.ts'
import { TransferError } from '../transfers/errors.ts'
import * as people from '../transfers/repository.ts'
import { displayName, initialOf } from '../transfers/rules.ts'
import { amountOf } from '../transfers/send-transfer.ts'
import type { TransferService } from '../transfers/service.ts'
import { walletNotFound } from '../wallets/errors.ts'
import { findWallet } from '../wallets/repository.ts'
import { PaymentRequestError } from './errors.ts'
import * as repo from './repository.ts'
import { requestStatus, shareLinks } from './rules.ts'

export interface ShareSettings {
  /** PUBLIC_URL. */
  publicUrl: string
  /** TELEGRAM_BOT_USERNAME and TELEGRAM_MINI_APP_NAME: the Mini App's direct link. */
  botUsername: string | undefined
  miniAppName: string | undefined
}

/**
 * Payment requests (issue 32): someone asks to be paid, shares a link or a QR
 * code, and whoever opens it pays it — once — with a transfer.
 */
export class PaymentRequestService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly transfers: TransferService,
    private readonly share: ShareSettings,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * @throws PaymentRequestError PAYMENT_REQUEST_INVALID, TransferError
   *   CURRENCY_NOT_FOUND and TRANSFER_INVALID (the amount), WalletError WALLET_NOT_FOUND
   */
  async create(owner: Owner, body: CreatePaymentRequestBody): Promise<PaymentRequest> {
    const now = this.clock()
    const currency = await people.findCurrency(this.db, body.currency_uuid)
    if (!currency) throw new TransferError({ kind: 'CURRENCY_NOT_FOUND' })
    const amountMinor = amountOf(body.amount, currency.decimals)
    const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at)
    if (expiresAt && expiresAt <= now) {
      throw new PaymentRequestError({
        kind: 'PAYMENT_REQUEST_INVALID',
        field: '/body/expires_at',
        message: 'must be in the future',
      })
    }
    const walletId = body.wallet_uuid
      ? (await findWallet(this.db, owner, body.wallet_uuid))?.id
      : await people.receivingWallet(this.db, owner.tenantId, owner.userId)
    if (!walletId) throw walletNotFound()
    const row = await repo.insertRequest(this.db, {
      id: uuidv7(),
      tenant_id: owner.tenantId,
      requester_id: owner.userId,
      wallet_id: walletId,
      currency_uuid: currency.uuid,
      amount_minor: amountMinor.toString(),
      note: body.note?.trim() || null,
      expires_at: expiresAt,
      created_at: now,
    })
    return this.#own(row)
  }

  /** The public view. @throws PaymentRequestError PAYMENT_REQUEST_NOT_FOUND */
  async view(tenantId: string, id: string): Promise<PaymentRequestView> {
    const row = await repo.findRequest(this.db, tenantId, id)
    if (!row) throw new PaymentRequestError({ kind: 'PAYMENT_REQUEST_NOT_FOUND' })
    return this.#view(row)
  }

  async list(owner: Owner, page: { limit: number; offset: number }): Promise<PaymentRequestList> {
    const rows = await repo.findOwnRequests(this.db, owner, page)
    const data = await Promise.all(rows.slice(0, page.limit).map((row) => this.#own(row)))
    const last = rows.length <= page.limit
    return {
      data,
      total: last ? page.offset + data.length : page.offset + rows.length,
      limit: page.limit,
      offset: page.offset,
      is_last_page: last,
    }
  }

  /** @throws PaymentRequestError PAYMENT_REQUEST_NOT_FOUND, REQUEST_ALREADY_PAID, REQUEST_NOT_PAYABLE */
  async cancel(owner: Owner, id: string): Promise<PaymentRequest> {
    const row = await repo.findRequest(this.db, owner.tenantId, id)
    if (!row || row.requester_id !== owner.userId) {
      throw new PaymentRequestError({ kind: 'PAYMENT_REQUEST_NOT_FOUND' })
    }
    if (!(await repo.cancelRequest(this.db, owner, id))) this.#notPayable(row)
    return this.#own({ ...row, status: 'CANCELED' })
  }

  /**
   * Pays the request with a transfer to its requester (transfers/send-transfer.ts),
   * whose transaction marks it PAID before the balance locks: of two payers at
   * once exactly one pays, the other gets REQUEST_ALREADY_PAID and pays nothing.
   * @throws PaymentRequestError PAYMENT_REQUEST_NOT_FOUND, REQUEST_ALREADY_PAID,
   *   REQUEST_NOT_PAYABLE; TransferError and WalletError as a transfer does
   */
  async pay(owner: Owner, id: string, body: PayRequestBody): Promise<PaidRequest> {
    const row = await repo.findRequest(this.db, owner.tenantId, id)
    if (!row) throw new PaymentRequestError({ kind: 'PAYMENT_REQUEST_NOT_FOUND' })
    const currency = await people.findCurrency(this.db, row.currency_uuid)
    const { transfer } = await this.transfers.send(
      owner,
      {
        to: { user_id: row.requester_id },
        wallet_uuid: body.wallet_uuid,
        currency_uuid: row.currency_uuid,
        amount: fromMinor(BigInt(row.amount_minor), currency!.decimals),
        ...(row.note !== null && { note: row.note }),
        request_id: body.request_id,
      },
      {
        request: {
          id: row.id,
          claim: async (trx, transferId) => {
            const at = this.clock()
            if (!(await repo.markPaid(trx, { id, payerId: owner.userId, transferId, at }))) {
              this.#notPayable((await repo.findRequest(trx, owner.tenantId, id)) ?? row)
            }
          },
        },
      },
    )
    return { request: await this.view(owner.tenantId, id), transfer }
  }

  /** Whether paying it is the payer's first payment to its requester above the threshold. */
  async needsSecondLook(owner: Owner, id: string): Promise<boolean> {
    const row = await repo.findRequest(this.db, owner.tenantId, id)
    if (!row) return false
    const currency = await people.findCurrency(this.db, row.currency_uuid)
    return this.transfers.needsSecondLook(owner, {
      to: { user_id: row.requester_id },
      currencyUuid: row.currency_uuid,
      amount: fromMinor(BigInt(row.amount_minor), currency!.decimals),
    })
  }

  #notPayable(row: repo.PaymentRequestRow): never {
    const status = requestStatus(row.status, row.expires_at, this.clock())
    if (status === 'PAID') throw new PaymentRequestError({ kind: 'REQUEST_ALREADY_PAID' })
    throw new PaymentRequestError({
      kind: 'REQUEST_NOT_PAYABLE',
      status: status === 'CANCELED' ? 'CANCELED' : 'EXPIRED',
    })
  }

  async #view(row: repo.PaymentRequestRow): Promise<PaymentRequestView> {
    const [requester, currency] = await Promise.all([
      people.findPerson(this.db, row.tenant_id, { kind: 'user', userId: row.requester_id }),
      people.findCurrency(this.db, row.currency_uuid),
    ])
    const name = requester ? displayName(requester) : '—'
    return {
      id: row.id,
      status: requestStatus(row.status, row.expires_at, this.clock()),
      requester: { display_name: name, initial: initialOf(name) },
      amount: {
        currency_uuid: currency!.uuid,
        currency: currency!.code,
        chain: currency!.chain,
        decimals: currency!.decimals,
        amount: fromMinor(BigInt(row.amount_minor), currency!.decimals),
      },
      note: row.note,
      expires_at: row.expires_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
    }
  }

  async #own(row: repo.PaymentRequestRow): Promise<PaymentRequest> {
    const links = shareLinks(row.id, this.share)
    return {
      ...(await this.#view(row)),
      ...links,
      qr_svg: await QRCode.toString(links.url, {
        type: 'svg',
        margin: 1,
        errorCorrectionLevel: 'M',
      }),
      wallet_uuid: row.wallet_id,
      paid_at: row.paid_at?.toISOString() ?? null,
    }
  }
}
