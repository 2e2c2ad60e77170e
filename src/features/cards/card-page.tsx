import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId, useState } from 'react'
import { Link } from 'wouter'
import { type CardDetail, cardFinished, cardRevealable } from '../../../contract/cards.ts'
import { href } from '../../app/paths.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { CsvButton } from '../../ui/csv-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { CardActivityList } from './card-activity-list.tsx'
import { CardDelivery } from './card-delivery.tsx'
import { CardError, CardOtpPanel, CardSecretsPanel } from './card-secrets-panel.tsx'
import { LimitsEditor, RenameCard } from './card-settings.tsx'
import { CardVisual } from './card-visual.tsx'
import { formFactorLabel } from './labels.ts'
import { type CardAction, useCardAction, useCloseCard } from './mutations.ts'
import { cardCsvUrl, cardQuery, cardTransactionsQuery, revealsQuery } from './queries.ts'
import './cards.css'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'

/** /cards/:id — the card, its secrets on request, its settings and who saw what. */
export default function CardPage(props: { id: string }) {
  const { t } = useI18n()
  const card = useQuery(cardQuery(props.id))

  if (card.isPending) return <Pending paused={card.isPaused} />
  if (card.isError) {
    return (
      <LoadError
        error={card.error}
        what="card"
        back={{ href: href.cards(), label: t('cards.back') }}
        onRetry={() => card.refetch()}
      />
    )
  }
  const data = card.data
  const closed = cardFinished(data.status)
  return (
    <div className="stack">
      <PageHeader
        title={data.nick_name ?? t('cards.unnamed')}
        back={{ href: href.cards({ wallet: data.wallet_uuid }), label: t('cards.back') }}
      />
      <CardVisual card={data} />
      <Facts card={data} />
      <CardDelivery card={data} />
      {/* The server's own rule: it refuses the rest with 409. */}
      {cardRevealable(data.status) && (
        <>
          <CardSecretsPanel card={data} />
          <CardOtpPanel card={data} />
        </>
      )}
      {!closed && (
        <>
          <Section title={t('cards.manage')}>
            <FreezeToggle card={data} />
          </Section>
          <Section title={t('cards.rename.title')}>
            <RenameCard key={data.nick_name ?? ''} card={data} disabled={false} />
          </Section>
          <Section title={t('cards.limits.title')}>
            <LimitsEditor card={data} disabled={false} />
          </Section>
          <Section title={t('cards.close.title')}>
            <CloseCard card={data} />
          </Section>
        </>
      )}
      <CardActivityList
        title={t('cards.tx.title')}
        query={cardTransactionsQuery(data.id)}
        actions={
          <CsvButton url={cardCsvUrl(data.id)} fileName={`card-${data.last4}-transactions.csv`} />
        }
      />
      <RevealLog card={data} />
    </div>
  )
}

function Section(props: { title: string; children: ReactNode }) {
  const titleId = useId()
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </section>
  )
}

function Facts(props: { card: CardDetail }) {
  const { t, language } = useI18n()
  const { card } = props
  const account = card.fiat_account
  const rows: [string, string][] = [
    [t('cards.formFactor'), formFactorLabel(t, card.form_factor)],
    [t('cards.program'), account.program_name],
    [t('cards.funding'), card.stand_alone ? t('cards.standAlone') : t('cards.onAccount')],
    [
      t('cards.balance'),
      formatMoney(language, { amount: account.balance, currency: account.currency, chain: null }),
    ],
  ]
  return (
    <>
      <FieldList rows={rows} />
      {!card.stand_alone && (
        <p>
          <Link href={href.fiatAccount(account.id, { wallet: card.wallet_uuid })}>
            {t('cards.account.open', { program: account.program_name })}
          </Link>
        </p>
      )}
    </>
  )
}

function FreezeToggle(props: { card: CardDetail }) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const action = useCardAction(props.card)
  const [done, setDone] = useState<CardAction>()
  const next: CardAction | undefined =
    props.card.status === 'ACTIVE'
      ? 'freeze'
      : props.card.status === 'FROZEN'
        ? 'unfreeze'
        : undefined

  if (!next) return <p>{t('cards.cannotFreeze')}</p>
  return (
    <div className="stack">
      <div>
        <Button
          variant="secondary"
          busy={action.isPending}
          onClick={() => {
            setDone(undefined)
            action.mutate(next, { onSuccess: () => setDone(next) })
          }}
          {...server.disabledProps}
        >
          {t(`cards.${next}`)}
        </Button>
        {server.reason}
      </div>
      {done && <Notice>{t(done === 'freeze' ? 'cards.frozen' : 'cards.unfrozen')}</Notice>}
      {action.isError && <CardError error={action.error} />}
    </div>
  )
}

/** Closing is final: asked in a modal dialog whose first focus is the safe answer. */
function CloseCard(props: { card: CardDetail }) {
  const { t } = useI18n()
  const server = useNeedsServer()
  const close = useCloseCard(props.card)
  const [asking, setAsking] = useState(false)

  return (
    <div className="stack">
      <p>{t('cards.close.body')}</p>
      <div>
        <Button
          variant="danger"
          onClick={() => {
            close.reset()
            setAsking(true)
          }}
          {...server.disabledProps}
        >
          {t('cards.close.action')}
        </Button>
        {server.reason}
      </div>
      <ConfirmDialog
        open={asking}
        title={t('cards.close.confirmTitle')}
        message={[t('cards.close.body'), props.card.stand_alone && t('cards.close.balance')]
          .filter(Boolean)
          .join('\n')}
        confirmLabel={t('cards.close.confirm')}
        busy={close.isPending}
        onConfirm={() => close.mutate(undefined, { onSuccess: () => setAsking(false) })}
        onCancel={() => setAsking(false)}
      >
        {close.isError && <CardError error={close.error} />}
      </ConfirmDialog>
    </div>
  )
}

function RevealLog(props: { card: CardDetail }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const log = useQuery(revealsQuery(props.card.id))
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('cards.log.title')}</h2>
      <p className="muted">{t('cards.log.lead')}</p>
      {log.isPending ? (
        <Pending paused={log.isPaused} />
      ) : log.isError ? (
        <ErrorSummary error={log.error} />
      ) : log.data.data.length === 0 ? (
        <p>{t('cards.log.empty')}</p>
      ) : (
        <ul className="card-log">
          {log.data.data.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.created_at}>{formatDateTime(language, entry.created_at)}</time>{' '}
              · {t(`cards.log.${entry.kind}`)} ·{' '}
              <span className="muted">
                {t('cards.log.session', { session: entry.session_id.slice(0, 8) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
