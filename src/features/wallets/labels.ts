import type {
  RecordType,
  TransactionStatus,
  WalletTransaction,
  WalletType,
} from '../../../contract/wallets.ts'
import type { Translate } from '../../i18n/i18n.tsx'
import { WALLET_LABEL_ENTRY, walletTypeLabel } from '../../i18n/wallet-names.ts'

export { walletTypeLabel }

/*
 * The docs/product.md §3–§4 enumerations as the app lists them. The contract's arrays
 * are values built with TypeBox, which the app must not ship (import type
 * only), so each list is a Record over the contract's type: a value added to
 * the contract is a type error here until it is listed and labelled.
 */
const keysOf = <K extends string>(record: Record<K, true>) => Object.keys(record) as K[]

type TransactionType = WalletTransaction['type']
type TransactionMethod = WalletTransaction['method']

export const WALLET_TYPES = Object.keys(WALLET_LABEL_ENTRY) as WalletType[]

export const TRANSACTION_TYPES = keysOf<TransactionType>({ deposit: true, withdrawal: true })
export const TRANSACTION_STATUSES = keysOf<TransactionStatus>({
  new: true,
  pending: true,
  processing: true,
  complete: true,
  canceled: true,
  failed: true,
})

export const transactionTypeLabel = (t: Translate, type: TransactionType) => t(`tx.type.${type}`)
export const methodLabel = (t: Translate, method: TransactionMethod) => t(`tx.method.${method}`)
export const statusLabel = (t: Translate, status: TransactionStatus) => t(`tx.status.${status}`)
export const recordTypeLabel = (t: Translate, recordType: RecordType) =>
  t(`tx.record.${recordType}`)
