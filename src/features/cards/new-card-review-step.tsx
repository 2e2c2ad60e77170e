import { Link } from 'wouter'
import type { CardFormFactor } from '../../../contract/cards.ts'
import type { CardProgram, FiatAccount } from '../../../contract/fiat-accounts.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import type { DeliveryAddress } from './delivery.ts'
import { accountName, formFactorLabel } from './labels.ts'
import { StepFrame } from './new-card-step-frame.tsx'

/** The last step: everything the card will be, its fees, and "Issue" (or where to add the fee). */
export function NewCardReviewStep(props: {
  focus: boolean
  program: CardProgram
  account: FiatAccount | undefined
  formFactor: CardFormFactor
  nickName: string
  address: DeliveryAddress | undefined
  wallet: string
  error: unknown
  busy: boolean
  onBack: () => void
  onConfirm: () => void
}) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const { program, address } = props
  const money = (amount: string) =>
    formatMoney(language, { amount: amount, currency: program.currency, chain: null })
  const rows: [string, string][] = [
    [t('cards.program'), `${program.name} · ${program.currency}`],
    [
      t('cards.funding'),
      props.account
        ? t('cards.new.accountOption', {
            program: accountName(t, props.account),
            balance: money(props.account.balance),
          })
        : t('cards.standAlone'),
    ],
    [t('cards.formFactor'), formFactorLabel(t, props.formFactor)],
    ...(props.nickName ? [[t('cards.rename.label'), props.nickName] as [string, string]] : []),
    ...(address
      ? [
          [
            t('cards.address.title'),
            [
              address.recipient_name,
              address.line1,
              address.line2,
              `${address.postal_code} ${address.city}`,
              address.country,
            ]
              .filter(Boolean)
              .join(', '),
          ] as [string, string],
        ]
      : []),
    [t('cards.new.issueFee'), money(program.fees.issue)],
    [t('cards.new.monthlyFee'), money(program.fees.monthly)],
  ]
  const insufficient = props.error instanceof ApiError && props.error.code === 'INSUFFICIENT_FUNDS'

  return (
    <StepFrame
      title={t('cards.new.stepReview')}
      focus={props.focus}
      primary={{
        text: t('cards.new.submit'),
        enabled: !props.busy && !server.offline,
        busy: props.busy,
      }}
      onSubmit={(event) => {
        event.preventDefault()
        props.onConfirm()
      }}
    >
      <FieldList rows={rows} />
      <p className="muted">{t('cards.new.feeNote')}</p>
      {insufficient ? (
        <div className="stack" role="alert">
          <p className="alert alert-error">
            {t('cards.new.insufficient', { fee: money(program.fees.issue) })}
          </p>
          <p>
            {/* On an account the fee comes from the account; stand-alone, from the wallet. */}
            {props.account ? (
              <Link
                href={href.topUp({ wallet: props.wallet, account: props.account.id })}
                className="button button-secondary"
              >
                {t('cards.new.topUp')}
              </Link>
            ) : (
              <Link
                href={href.deposit({ wallet: props.wallet, currency: program.currency_uuid })}
                className="button button-secondary"
              >
                {t('cards.new.addMoney')}
              </Link>
            )}
          </p>
        </div>
      ) : (
        props.error !== null && <ErrorSummary error={props.error} />
      )}
      <div className="row">
        <Button variant="secondary" onClick={props.onBack} disabled={props.busy}>
          {t('cards.new.back')}
        </Button>
        <Button type="submit" busy={props.busy} {...server.disabledProps}>
          {t('cards.new.submit')}
        </Button>
      </div>
      {server.reason}
    </StepFrame>
  )
}
