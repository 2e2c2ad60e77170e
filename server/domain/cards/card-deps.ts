import type { Kysely } from 'kysely'
import type { DB } from '../../infra/db/schema.ts'
import type { JobRunner } from '../../infra/jobs.ts'
import type { ReceivingBank } from '../../providers/banking/banking.ts'
import type { Owner } from '../owner.ts'
import type { CardCrypto } from './card-crypto.ts'
import type { ShippingProvider } from './shipping.ts'

export interface CardSettings {
  jobs: Pick<JobRunner, 'enqueue'>
  /** The bank that gives a card's own fiat account its IBAN. */
  bank: ReceivingBank
  /**
   * Who delivers PHYSICAL cards: the sandbox courier in sandbox mode; none in
   * production mode (the card stays ORDERED until a real provider moves it).
   */
  shipping?: ShippingProvider | undefined
  clock?: () => Date
}

/** What every card use case works with; built once by CardService. */
export interface CardDeps {
  db: Kysely<DB>
  crypto: CardCrypto
  settings: CardSettings
  clock: () => Date
}

/** The caller: the owner, and the session a reveal is logged under. */
export interface Caller extends Owner {
  sessionId: string
}
