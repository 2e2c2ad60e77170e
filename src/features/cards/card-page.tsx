import { useQuery } from '@tanstack/react-query'
import { type ComponentType, type ReactNode, useEffect, useId, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { cardFinished, cardRevealable } from '../../../contract/card-rules.ts'
import type { CardDetail } from '../../../contract/cards.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { href } from '../../paths.ts'
import { Button, buttonClass, Notice } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { useSecondsLeft } from '../../ui/countdown.ts'
import { CsvButton } from '../../ui/csv-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { EyeIcon, GaugeIcon, MoreIcon, SnowflakeIcon } from '../../ui/screen-icons.tsx'
import { Sheet } from '../../ui/sheet.tsx'
import { AddMoney } from './add-money.tsx'
import { ControlsEditor } from './card-controls-editor.tsx'
import { CardDelivery } from './card-delivery.tsx'
import { CardError, CardOtpPanel, SecretCopyButtons } from './card-secrets-panel.tsx'
import { LimitsEditor, LimitsSummary, RenameCard } from './card-settings.tsx'
import { CardVisual } from './card-visual.tsx'
import { accountName } from './labels.ts'
import { type CardAction, useCardAction, useCloseCard } from './mutations.ts'
import { cardCsvUrl, cardQuery, revealsQuery } from './queries.ts'
import { REVEAL_MS, useCardReveal } from './use-card-reveal.ts'
import './cards.css'

type Panel = 'limits' | 'more'

/**
 * /cards/:id — the card first: its picture (the number, expiry and CVV
 * appear on it when revealed), its balance and "Add money" (`?issued=1`, the
 * issue flow's end, opens it by itself), a row of quick actions (Freeze,
 * Details, Limits, More), then what it paid for (`activity`, composed in by
 * src/app). Settings open in sheets, so the page stays short on a phone;
 * limits and controls (issue 30) share one.
 */
export default function CardPage(props: {
  id: string
  activity?: (card: CardDetail) => ReactNode
}) {
  const { t } = useI18n()
  const search = useSearch()
  const card = useQuery(cardQuery(props.id))

  if (card.isPending) return <Pending paused={card.isPaused} shape="page" />
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
  return (
    <div className="stack card-page">
      <PageHeader
        title={data.nick_name ?? t('cards.unnamed')}
        back={{ href: href.cards({ wallet: data.wallet_uuid }), label: t('cards.back') }}
      />
      <CardFront card={data} issued={new URLSearchParams(search).get('issued') === '1'} />
      <CardDelivery card={data} />
      {props.activity?.(data)}
    </div>
  )
}

/** The picture, the balance under it with "Add money", the quick actions and their sheets. */
function CardFront(props: { card: CardDetail; issued: boolean }) {
  const { t, language } = useI18n()
  const { card } = props
  const server = useNeedsServer()
  const reveal = useCardReveal(card.id)
  const freeze = useCardAction(card)
  const [frozeNow, setFrozeNow] = useState<CardAction>()
  const [panel, setPanel] = useState<Panel>()
  const [revealedUntil, setRevealedUntil] = useState<number>()
  const secondsLeft = useSecondsLeft(revealedUntil)
  const closed = cardFinished(card.status)
  const revealable = cardRevealable(card.status)
  const account = card.fiat_account

  // A card closed from the sheet has nothing left to set: the sheet goes with it.
  useEffect(() => {
    if (closed) setPanel(undefined)
  }, [closed])

  // The countdown starts when the details arrive and ends with them.
  const revealed = reveal.secrets !== undefined
  useEffect(() => {
    setRevealedUntil(revealed ? Date.now() + REVEAL_MS : undefined)
  }, [revealed])

  const next: CardAction | undefined =
    card.status === 'ACTIVE' ? 'freeze' : card.status === 'FROZEN' ? 'unfreeze' : undefined

  // Details only for a card the server will reveal (not before activation).
  const details: QuickAction[] = revealable
    ? [
        {
          key: 'details',
          icon: EyeIcon,
          label: revealed ? t('cards.quick.hide') : t('cards.quick.details'),
          name: revealed ? t('cards.reveal.hide') : t('cards.reveal.show'),
          pressed: revealed,
          busy: reveal.busy,
          disabled: !revealed && server.offline,
          onClick: () => (revealed ? reveal.hide() : void reveal.reveal()),
        },
      ]
    : []
  const actions: QuickAction[] = closed
    ? []
    : [
        {
          key: 'freeze',
          icon: SnowflakeIcon,
          label: next === 'unfreeze' ? t('cards.quick.unfreeze') : t('cards.quick.freeze'),
          name: next === 'unfreeze' ? t('cards.unfreeze') : t('cards.freeze'),
          pressed: card.status === 'FROZEN',
          busy: freeze.isPending,
          disabled: next === undefined || server.offline,
          onClick: () => {
            if (!next) return
            setFrozeNow(undefined)
            freeze.mutate(next, { onSuccess: () => setFrozeNow(next) })
          },
        },
        ...details,
        {
          key: 'limits',
          icon: GaugeIcon,
          label: t('cards.quick.limits'),
          name: t('cards.controls.sheetTitle'),
          dialog: true,
          onClick: () => setPanel('limits'),
        },
        {
          key: 'more',
          icon: MoreIcon,
          label: t('cards.quick.more'),
          dialog: true,
          onClick: () => setPanel('more'),
        },
      ]

  return (
    <>
      <section className="card-front" aria-label={t('cards.front.label')}>
        <CardVisual card={card} secrets={reveal.secrets} />
        {reveal.secrets && (
          <div className="card-revealed stack">
            <SecretCopyButtons secrets={reveal.secrets} />
            <p className="muted card-reveal-countdown" aria-live="off">
              {t('cards.reveal.hidesIn', { seconds: secondsLeft })}
            </p>
          </div>
        )}
        <p className="card-balance">
          <span className="card-balance-amount" data-testid="card-balance">
            {formatMoney(language, {
              amount: account.balance,
              currency: account.currency,
              chain: null,
            })}
          </span>
          <span className="muted card-balance-account">
            {card.stand_alone ? (
              t('cards.balanceOwn')
            ) : (
              <Link href={href.fiatAccount(account.id, { wallet: card.wallet_uuid })}>
                {accountName(t, account)}
              </Link>
            )}
          </span>
        </p>
        <AddMoney card={card} issued={props.issued} />
        {actions.length > 0 && <QuickActions actions={actions} label={t('cards.quick.label')} />}
        {server.reason}
        {frozeNow && (
          <Notice>{t(frozeNow === 'freeze' ? 'cards.frozen' : 'cards.unfrozen')}</Notice>
        )}
        {freeze.isError && <CardError error={freeze.error} />}
        {reveal.error !== undefined && <CardError error={reveal.error} />}
      </section>
      <Sheet
        open={panel === 'limits'}
        title={t('cards.controls.sheetTitle')}
        onClose={() => setPanel(undefined)}
        testId="card-controls"
      >
        <div className="stack card-more">
          <Part title={t('cards.limits.title')}>
            <LimitsSummary card={card} />
            <LimitsEditor card={card} disabled={closed} />
          </Part>
          <Part title={t('cards.controls.title')}>
            <ControlsEditor card={card} disabled={closed} />
          </Part>
        </div>
      </Sheet>
      <Sheet
        open={panel === 'more'}
        title={t('cards.more.title')}
        onClose={() => setPanel(undefined)}
        testId="card-more"
      >
        <MoreSettings card={card} />
      </Sheet>
    </>
  )
}

interface QuickAction {
  key: string
  icon: ComponentType<{ size?: number }>
  label: string
  /** The name in full words ("Freeze card"), the short label in it; the label otherwise. */
  name?: string
  onClick: () => void
  /** A state that is on (frozen, revealed): marked, and its name says the way back. */
  pressed?: boolean
  busy?: boolean
  disabled?: boolean
  /** It opens a sheet. */
  dialog?: boolean
}

/** Round buttons over short labels, four in a row at 360 px, in Russian too. */
function QuickActions(props: { actions: QuickAction[]; label: string }) {
  return (
    <ul className="quick-actions" aria-label={props.label}>
      {props.actions.map((action) => {
        const Icon = action.icon
        return (
          <li key={action.key}>
            <button
              type="button"
              className={action.pressed ? 'quick-action quick-action-on' : 'quick-action'}
              aria-label={action.name}
              aria-haspopup={action.dialog ? 'dialog' : undefined}
              aria-busy={action.busy || undefined}
              disabled={action.disabled || action.busy}
              onClick={action.onClick}
              data-testid={`quick-${action.key}`}
            >
              <span className="quick-action-icon" aria-hidden="true">
                {action.busy ? <span className="spinner" /> : <Icon />}
              </span>
              <span className="quick-action-label">{action.label}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}

/** Everything else about the card: its name, a one-time code, the statement, who saw it, closing. */
function MoreSettings(props: { card: CardDetail }) {
  const { t } = useI18n()
  const { card } = props
  const closed = cardFinished(card.status)
  return (
    <div className="stack card-more">
      {!closed && (
        <Part title={t('cards.rename.title')}>
          <RenameCard key={card.nick_name ?? ''} card={card} disabled={false} />
        </Part>
      )}
      {cardRevealable(card.status) && <CardOtpPanel card={card} />}
      <Part title={t('cards.statement.title')}>
        <p className="muted">{t('cards.statement.lead')}</p>
        <div>
          <CsvButton url={cardCsvUrl(card.id)} fileName={`card-${card.last4}-transactions.csv`} />
        </div>
        <div>
          <Link
            href={href.statements({ card: card.id, last4: card.last4 })}
            className={buttonClass('secondary')}
          >
            {t('cards.statement.pdf')}
          </Link>
        </div>
      </Part>
      <RevealLog card={card} />
      {!closed && (
        <Part title={t('cards.close.title')}>
          <CloseCard card={card} />
        </Part>
      )}
    </div>
  )
}

function Part(props: { title: string; children: ReactNode }) {
  const titleId = useId()
  return (
    <section className="stack sheet-part" aria-labelledby={titleId}>
      <h3 id={titleId}>{props.title}</h3>
      {props.children}
    </section>
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
    <section className="stack sheet-part" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('cards.log.title')}</h3>
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
