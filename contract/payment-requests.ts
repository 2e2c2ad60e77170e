import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { oneOf } from './enums.ts'
import { Amount } from './money.ts'
import { MoneySide } from './orders.ts'
import { Page, PageQuery } from './pagination.ts'
import { Note, Transfer } from './transfers.ts'

/**
 * Issue 32: a person asks to be paid. OPEN until one payer pays it (PAID) or
 * the requester takes it back (CANCELED); past `expires_at` an open request
 * reads EXPIRED and takes no payment.
 */
export const PAYMENT_REQUEST_STATUSES = ['OPEN', 'PAID', 'CANCELED', 'EXPIRED'] as const
export type PaymentRequestStatus = (typeof PAYMENT_REQUEST_STATUSES)[number]

/** `startapp=pr_<id>`: how a Telegram link names a request (the app reads Telegram's `start_param`). */
export { REQUEST_START_PREFIX } from './display-rules.ts'

const Uuid = Type.String({ format: 'uuid' })
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Time = Type.String({ format: 'date-time' })

/** `POST /api/v2/payment-requests`. The money lands in `wallet_uuid`, else the oldest wallet. */
export const CreatePaymentRequestBody = Type.Object(
  {
    amount: Amount,
    currency_uuid: Uuid,
    note: Type.Optional(Note),
    expires_at: Type.Optional(Time),
    wallet_uuid: Type.Optional(Uuid),
  },
  { additionalProperties: false },
)
export type CreatePaymentRequestBody = Static<typeof CreatePaymentRequestBody>

/**
 * What anyone with the link sees (`GET /api/v2/payment-requests/{id}`, no
 * sign-in): who asks — a display name and initial only —, how much, for what,
 * and whether it can still be paid.
 */
export const PaymentRequestView = Type.Object({
  id: Uuid,
  status: oneOf(PAYMENT_REQUEST_STATUSES),
  requester: Type.Object({ display_name: Type.String(), initial: Type.String() }),
  amount: MoneySide,
  note: Nullable(Type.String()),
  expires_at: Nullable(Time),
  created_at: Time,
})
export type PaymentRequestView = Static<typeof PaymentRequestView>

/** The requester's own view: the view, and the ways to share it. */
export const PaymentRequest = Type.Composite([
  PaymentRequestView,
  Type.Object({
    /** The app's page of the request (PUBLIC_URL/pay/<id>). */
    url: Type.String(),
    /** The Mini App's direct link, `https://t.me/<bot>/<app>?startapp=pr_<id>`; null when no bot is configured. */
    telegram_url: Nullable(Type.String()),
    /** `url` as a QR code, an SVG document. */
    qr_svg: Type.String(),
    wallet_uuid: Uuid,
    paid_at: Nullable(Time),
  }),
])
export type PaymentRequest = Static<typeof PaymentRequest>

export const PaymentRequestList = Page(PaymentRequest)
export type PaymentRequestList = Static<typeof PaymentRequestList>
export const PaymentRequestListQuery = PageQuery

/** `POST /api/v2/payment-requests/{id}/pay`: a transfer to the requester, once. */
export const PayRequestBody = Type.Object(
  { wallet_uuid: Uuid, request_id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export type PayRequestBody = Static<typeof PayRequestBody>

export const PaidRequest = Type.Object({ request: PaymentRequestView, transfer: Transfer })
export type PaidRequest = Static<typeof PaidRequest>
