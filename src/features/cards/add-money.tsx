import { lazy, Suspense, useId, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { cardFinished } from '../../../contract/card-rules.ts'
import type { CardDetail } from '../../../contract/cards.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { Pending } from '../../ui/online.tsx'
import { Sheet } from '../../ui/sheet.tsx'

/*
 * The account's bank details, as its own page shows them, loaded with that
 * page's code when the sheet first opens: a module shared by the card's and
 * the account's screens would be one more name in the first download.
 */
const BankDetails = lazy(() =>
  import('./fiat-account-page.tsx').then((module) => ({ default: module.BankDetails })),
)

/**
 * "Add money" on a card: the two ways money reaches what the card spends —
 * from one of the person's wallets (the top-up order, whose review shows the
 * rate, the fee and what reaches the card before anything moves), or a bank
 * transfer to the account's own IBAN — in a sheet. A card just issued
 * (`issued`) opens it by itself: the issue flow's last step is its funding.
 */
export function AddMoney(props: { card: CardDetail; issued: boolean }) {
  const { t } = useI18n()
  const [, navigate] = useLocation()
  const [open, setOpen] = useState(props.issued)
  const walletTitle = useId()
  const { card } = props
  const account = card.fiat_account
  if (cardFinished(card.status) || account.status !== 'ACTIVE') return null

  const close = () => {
    setOpen(false)
    // Once seen, a reload of the card does not offer it again.
    if (props.issued) navigate(href.card(card.id), { replace: true })
  }
  return (
    <>
      <Button className="card-add-money" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('cards.addMoney.open')}
      </Button>
      <Sheet
        open={open}
        title={t(props.issued ? 'cards.addMoney.issuedTitle' : 'cards.addMoney.title')}
        onClose={close}
        testId="add-money"
      >
        <div className="stack">
          {props.issued && <p className="lead">{t('cards.addMoney.issuedLead')}</p>}
          <section className="stack sheet-part" aria-labelledby={walletTitle}>
            <h3 id={walletTitle}>{t('cards.addMoney.fromWallet')}</h3>
            <p className="muted">
              {t('cards.addMoney.fromWalletLead', { currency: account.currency })}
            </p>
            <Link
              className="button button-primary"
              href={href.topUp({ wallet: card.wallet_uuid, account: account.id, card: card.id })}
            >
              {t('cards.addMoney.topUp')}
            </Link>
          </section>
          {account.bank_details && (
            <Suspense fallback={<Pending paused={false} shape="card" />}>
              <BankDetails details={account.bank_details} account={account} part />
            </Suspense>
          )}
          {props.issued && (
            <Button variant="quiet" onClick={close}>
              {t('cards.addMoney.later')}
            </Button>
          )}
        </div>
      </Sheet>
    </>
  )
}
