import { useQueries, useQuery } from '@tanstack/react-query'
import { cardsQuery } from '../features/cards/queries.ts'
import { isZero } from '../features/wallets/balance-list.tsx'
import type { MessageKey } from '../i18n/en.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { href, paths } from '../paths.ts'
import { useOffers } from '../queries/tenant.ts'
import { meQuery } from '../queries/user.ts'
import { walletsQuery } from '../queries/wallets.ts'
import { CardIcon, ShieldIcon } from '../ui/icons.tsx'
import { LinkList } from '../ui/link-list.tsx'
import { ArrowDownIcon } from '../ui/screen-icons.tsx'

type StepKey = 'verify' | 'addMoney' | 'getCard'

export interface Step {
  key: StepKey
  to: string
  /** In progress rather than waiting for the person (a verification being checked). */
  waiting?: boolean
}

/** The facts the steps are decided on; undefined while not known yet. */
export interface Progress {
  kyc: string | undefined
  /** Whether any wallet holds or expects money. */
  funded: boolean | undefined
  /** Whether the person has a card that is not closed. */
  carded: boolean | undefined
  wallet: string | undefined
  offersCards: boolean
}

/**
 * What a new person does next, in order — verify, add money, get a card —
 * each gone once done. A step is left out while its fact is unknown, so a
 * step never shows for a moment and disappears.
 */
export function nextSteps(progress: Progress): Step[] {
  const steps: Step[] = []
  if (progress.kyc !== undefined && progress.kyc !== 'APPROVED') {
    steps.push({
      key: 'verify',
      to: paths.verify,
      waiting: progress.kyc === 'PENDING' || progress.kyc === 'HOLD',
    })
  }
  if (progress.funded === false) {
    steps.push({
      key: 'addMoney',
      to: href.deposit(progress.wallet ? { wallet: progress.wallet } : {}),
    })
  }
  if (progress.offersCards && progress.carded === false) {
    steps.push({
      key: 'getCard',
      to: href.newCard(progress.wallet ? { wallet: progress.wallet } : {}),
    })
  }
  return steps
}

const ICONS = { verify: ShieldIcon, addMoney: ArrowDownIcon, getCard: CardIcon }
const TITLES: Record<StepKey, MessageKey> = {
  verify: 'steps.verify',
  addMoney: 'steps.addMoney',
  getCard: 'steps.getCard',
}
const EXPLAINED: Record<StepKey, MessageKey> = {
  verify: 'steps.verifyLead',
  addMoney: 'steps.addMoneyLead',
  getCard: 'steps.getCardLead',
}

/** Home's "Next steps" card for a new person; nothing once every step is done. */
export function NextSteps() {
  const { t } = useI18n()
  const me = useQuery(meQuery())
  const wallets = useQuery(walletsQuery())
  const offersCards = useOffers('cards')
  const list = wallets.data?.data
  const cards = useQueries({
    queries: offersCards ? (list ?? []).map((wallet) => cardsQuery(wallet.uuid)) : [],
  })
  const cardsKnown = list !== undefined && cards.every((query) => query.isSuccess)
  const progress: Progress = {
    kyc: me.data?.kyc_status,
    funded: list?.some((wallet) =>
      wallet.balances.some((b) => !isZero(b.available) || !isZero(b.pending)),
    ),
    carded: cardsKnown
      ? cards.some((query) => query.data?.data.some((card) => card.status !== 'CLOSED'))
      : undefined,
    wallet: list?.find((wallet) => wallet.type === 'personal')?.uuid ?? list?.[0]?.uuid,
    offersCards,
  }
  // All at once, when every fact is in: a list that grows step by step would jump.
  const known =
    progress.kyc !== undefined &&
    progress.funded !== undefined &&
    (!offersCards || progress.carded !== undefined)
  const steps = known ? nextSteps(progress) : []
  if (steps.length === 0) return null

  return (
    <section className="card card-flush next-steps" aria-labelledby="next-steps-title">
      <h2 id="next-steps-title" className="card-title">
        {t('steps.title')}
      </h2>
      <LinkList
        ordered
        accent
        rows={steps.map((step, index) => ({
          key: step.key,
          to: step.to,
          icon: ICONS[step.key],
          testId: 'next-step',
          title: (
            <>
              <span className="visually-hidden">{t('steps.number', { n: index + 1 })} </span>
              {t(step.waiting ? 'steps.verifyWaiting' : TITLES[step.key])}
            </>
          ),
          explain: t(step.waiting ? 'steps.verifyWaitingLead' : EXPLAINED[step.key]),
        }))}
      />
    </section>
  )
}
