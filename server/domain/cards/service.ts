import type { Kysely } from 'kysely'
import type { CardControls } from '../../../contract/card-controls.ts'
import type {
  Card,
  CardDetail,
  CardLimits,
  CardList,
  CardListQuery,
  CardOtp,
  CardRevealList,
  SecretKeyReply,
} from '../../../contract/cards.ts'
import type { DB } from '../../infra/db/schema.ts'
import type { Job, JobContext, JobResult } from '../../infra/jobs.ts'
import type { Owner } from '../owner.ts'
import { getControls, loosensControls, setControls } from './card-controls.ts'
import type { CardCrypto } from './card-crypto.ts'
import type { Caller, CardDeps, CardSettings } from './card-deps.ts'
import { chargeMonthly } from './card-fees.ts'
import { issueOtp, revealSecrets, reveals } from './card-secret-reveals.ts'
import { raisesLimits, rename, setLimits } from './card-settings.ts'
import { act, activate } from './card-status.ts'
import { createOnAccount, createStandAlone, type Issued, type IssueOptions } from './issue-card.ts'
import { cardDetail, getCard, listCards } from './read-cards.ts'
import type { CardAction } from './rules.ts'

export type { Caller, CardSettings } from './card-deps.ts'
export { CARD_MONTHLY_FEE_JOB } from './card-fees.ts'
export { consumeOtp, printedCvv } from './card-secret-reveals.ts'
export type { Issued } from './issue-card.ts'
export { toCard } from './read-cards.ts'

/**
 * Cards: issued under a program, spending from a fiat account. The number is
 * generated here, kept only encrypted (card-crypto.ts), and leaves the server
 * only inside the secret exchange; the CVV is derived on each reveal.
 *
 * One use case per file: issuing (issue-card.ts), reading (read-cards.ts),
 * freezing, closing and activating (card-status.ts), limits and names
 * (card-settings.ts), controls (card-controls.ts), the monthly fee job (card-fees.ts), and the secret
 * exchange with its reveal log (card-secret-reveals.ts).
 */
export class CardService {
  readonly #deps: CardDeps

  constructor(db: Kysely<DB>, crypto: CardCrypto, settings: CardSettings) {
    this.#deps = { db, crypto, settings, clock: settings.clock ?? (() => new Date()) }
  }

  createStandAlone(
    owner: Owner,
    request: IssueOptions & { walletId: string; programId: string },
  ): Promise<Issued> {
    return createStandAlone(this.#deps, owner, request)
  }

  createOnAccount(
    owner: Owner,
    request: IssueOptions & { fiatAccountId: string },
  ): Promise<Issued> {
    return createOnAccount(this.#deps, owner, request)
  }

  list(owner: Owner, query: CardListQuery): Promise<CardList> {
    return listCards(this.#deps, owner, query)
  }

  get(owner: Owner, id: string): Promise<Card> {
    return getCard(this.#deps, owner, id)
  }

  detail(owner: Owner, id: string): Promise<CardDetail> {
    return cardDetail(this.#deps, owner, id)
  }

  act(owner: Owner, id: string, action: CardAction): Promise<Card> {
    return act(this.#deps, owner, id, action)
  }

  activate(owner: Owner, id: string, cvv: string): Promise<Card> {
    return activate(this.#deps, owner, id, cvv)
  }

  /** The job handler (CARD_MONTHLY_FEE_JOB). */
  readonly chargeMonthly = (job: Job, context: JobContext): Promise<JobResult> =>
    chargeMonthly(this.#deps, job, context)

  setLimits(owner: Owner, id: string, limits: CardLimits): Promise<Card> {
    return setLimits(this.#deps, owner, id, limits)
  }

  /** Whether `limits` raise any of the card's limits (the second look's question). */
  raisesLimits(owner: Owner, id: string, limits: CardLimits): Promise<boolean> {
    return raisesLimits(this.#deps, owner, id, limits)
  }

  controls(owner: Owner, id: string): Promise<CardControls> {
    return getControls(this.#deps, owner, id)
  }

  setControls(owner: Owner, id: string, controls: CardControls): Promise<CardControls> {
    return setControls(this.#deps, owner, id, controls)
  }

  /** Whether `controls` loosen the card's (the second look's question). */
  loosensControls(owner: Owner, id: string, controls: CardControls): Promise<boolean> {
    return loosensControls(this.#deps, owner, id, controls)
  }

  rename(
    owner: Owner,
    id: string,
    request: { nickName: string; requestId: string },
  ): Promise<{ card: Card; replayed: boolean }> {
    return rename(this.#deps, owner, id, request)
  }

  revealSecrets(caller: Caller, id: string, encryptedKey: string): Promise<SecretKeyReply> {
    return revealSecrets(this.#deps, caller, id, encryptedKey)
  }

  issueOtp(caller: Caller, id: string): Promise<CardOtp> {
    return issueOtp(this.#deps, caller, id)
  }

  reveals(
    owner: Owner,
    id: string,
    page: { limit: number; offset: number },
  ): Promise<CardRevealList> {
    return reveals(this.#deps, owner, id, page)
  }
}
