import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import {
  type StatementLanguage,
  statementLanguageFor,
} from '../../../contract/statement-languages.ts'
import type { Statement, StatementFormat, StatementScope } from '../../../contract/statements.ts'
import { formatLocale } from '../../i18n/digits.ts'
import { formatBytes } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href, paths } from '../../paths.ts'
import { useMiniApp } from '../../telegram/mini-app.tsx'
import { Alert, Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { canShareFile, saveFile, shareFile } from '../../ui/save-file.ts'
import {
  deviceTimeZone,
  monthPeriod,
  type Period,
  type RangeFault,
  rangePeriod,
  recentMonths,
} from './periods.ts'
import { createStatement, statementFile, statementLink, statementQuery } from './queries.ts'
import './statements.css'

/** What the statement is of, as the address holds it (`?wallet=`, `?account=&last4=`, `?card=&last4=`). */
function readScope(
  search: string,
): { scope: StatementScope; back: string; kind: Kind } | undefined {
  const params = new URLSearchParams(search)
  const wallet = params.get('wallet')
  const account = params.get('account')
  const card = params.get('card')
  if (wallet) return { scope: { wallet_uuid: wallet }, back: href.wallet(wallet), kind: 'wallet' }
  if (account) {
    return {
      scope: { fiat_account_id: account },
      back: href.fiatAccount(account, { wallet: params.get('from') ?? undefined }),
      kind: 'account',
    }
  }
  if (card) return { scope: { card_id: card }, back: href.card(card), kind: 'card' }
  return undefined
}

type Kind = 'wallet' | 'account' | 'card'

const FORMATS: StatementFormat[] = ['pdf', 'csv', 'json']

const FAULTS: Record<
  RangeFault,
  | 'statements.range.missing'
  | 'statements.range.order'
  | 'statements.range.future'
  | 'statements.range.tooLong'
> = {
  missing: 'statements.range.missing',
  order: 'statements.range.order',
  future: 'statements.range.future',
  tooLong: 'statements.range.tooLong',
}

/**
 * /statements — a statement of a wallet, a euro account or a card: a month or
 * a range of days, a format, then a progress bar while the server makes it,
 * then download or share (in Telegram, its own download). The statement's id
 * stays in the address, so a reload follows the same one.
 */
export default function StatementPage() {
  const { t, language } = useI18n()
  const search = useSearch()
  const [, navigate] = useLocation()
  const target = readScope(search)
  const made = new URLSearchParams(search).get('id')
  const back = { href: target?.back ?? paths.home, label: t('statements.back') }
  const last4 = new URLSearchParams(search).get('last4')

  if (!target) {
    return (
      <div className="stack">
        <PageHeader title={t('statements.title')} back={back} />
        <Alert>{t('statements.noScope')}</Alert>
      </div>
    )
  }
  const of =
    target.kind === 'wallet'
      ? t('statements.of.wallet')
      : target.kind === 'account'
        ? t('statements.of.account', { last4: last4 ?? '' })
        : t('statements.of.card', { last4: last4 ?? '' })

  return (
    <div className="stack statement-page">
      <PageHeader id="statement-title" title={t('statements.title')} back={back} lead={of} />
      <Request
        scope={target.scope}
        language={statementLanguageFor(language)}
        onMade={(statement) => {
          const params = new URLSearchParams(search)
          params.set('id', statement.id)
          navigate(`${paths.statements}?${params}`, { replace: true })
        }}
      />
      {made && <Progress id={made} />}
    </div>
  )
}

/** The form: which period, which format; one button that asks the server. */
function Request(props: {
  scope: StatementScope
  language: StatementLanguage
  onMade: (statement: Statement) => void
}) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const months = recentMonths(new Date())
  const [choice, setChoice] = useState<string>(months[1] ?? months[0]!)
  const [first, setFirst] = useState('')
  const [last, setLast] = useState('')
  const [format, setFormat] = useState<StatementFormat>('pdf')
  const periodName = useId()
  const formatName = useId()
  const firstId = useId()
  const lastId = useId()

  const range = choice === 'range' ? rangePeriod(first, last, new Date()) : undefined
  const period: Period | undefined =
    choice === 'range'
      ? range && 'period' in range
        ? range.period
        : undefined
      : monthPeriod(choice)
  const create = useMutation({
    mutationFn: (chosen: Period) =>
      createStatement({
        scope: props.scope,
        ...chosen,
        format,
        language: props.language,
        time_zone: deviceTimeZone(),
      }),
    onSuccess: props.onMade,
  })
  const monthName = (month: string) =>
    new Intl.DateTimeFormat(formatLocale(language), { month: 'long', year: 'numeric' }).format(
      new Date(`${month}-15T12:00:00`),
    )

  return (
    <form
      className="card stack"
      onSubmit={(event) => {
        event.preventDefault()
        if (period) create.mutate(period)
      }}
    >
      <fieldset className="chip-group">
        <legend>{t('statements.period')}</legend>
        <div className="chip-options">
          {[...months.slice(0, 6), 'range'].map((value, index) => (
            <label key={value} className="chip">
              <input
                type="radio"
                name={periodName}
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
              />
              <span>
                {value === 'range'
                  ? t('statements.range.choose')
                  : index === 0
                    ? t('statements.thisMonth', { month: monthName(value) })
                    : monthName(value)}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {choice === 'range' && (
        <div className="statement-range">
          <div className="field">
            <label htmlFor={firstId}>{t('statements.range.from')}</label>
            <input
              id={firstId}
              type="date"
              value={first}
              onChange={(e) => setFirst(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={lastId}>{t('statements.range.to')}</label>
            <input id={lastId} type="date" value={last} onChange={(e) => setLast(e.target.value)} />
          </div>
          {range && 'fault' in range && (first || last) && (
            <p className="field-error" role="alert">
              {t(FAULTS[range.fault])}
            </p>
          )}
        </div>
      )}
      <fieldset className="chip-group">
        <legend>{t('statements.format')}</legend>
        <div className="chip-options">
          {FORMATS.map((value) => (
            <label key={value} className="chip">
              <input
                type="radio"
                name={formatName}
                value={value}
                checked={format === value}
                onChange={() => setFormat(value)}
              />
              <span>{t(`statements.formats.${value}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {create.isError && <ErrorSummary error={create.error} />}
      <Button
        type="submit"
        block
        busy={create.isPending}
        disabled={!period || create.isPending || server.disabledProps.disabled}
      >
        {t('statements.create')}
      </Button>
      {server.reason}
    </form>
  )
}

/** The statement being made: a progress bar, then its file to download or share, and its code. */
function Progress(props: { id: string }) {
  const { t, language } = useI18n()
  const statement = useQuery(statementQuery(props.id))
  const miniApp = useMiniApp()
  const [handing, setHanding] = useState<'save' | 'share' | undefined>()
  const [failed, setFailed] = useState(false)
  const titleId = useId()

  if (statement.isPending) return null
  if (statement.isError) return <ErrorSummary error={statement.error} />
  const data = statement.data
  const hand = async (how: 'save' | 'share') => {
    setHanding(how)
    setFailed(false)
    try {
      // Telegram fetches the file itself: it gets a short link that needs no sign-in.
      if (miniApp?.downloadFile) {
        const link = await statementLink(data.id)
        await miniApp.downloadFile(link.url, data.file_name ?? `${data.code}.${data.format}`)
        return
      }
      const file = await statementFile(data)
      if (how === 'share' && canShareFile(file)) await shareFile(file, t('statements.title'))
      else saveFile(file)
    } catch (error) {
      console.error('[statements] handing the file over failed', error)
      setFailed(true)
    } finally {
      setHanding(undefined)
    }
  }

  return (
    <section className="card stack" aria-labelledby={titleId} data-testid="statement-progress">
      <h2 id={titleId}>{t(`statements.status.${data.status}`)}</h2>
      {(data.status === 'queued' || data.status === 'rendering') && (
        <>
          <progress
            className="statement-progress"
            max={100}
            value={data.progress}
            aria-label={t('statements.progress', { percent: data.progress })}
          />
          <p className="muted" aria-live="polite">
            {t('statements.progress', { percent: data.progress })}
          </p>
        </>
      )}
      {data.status === 'failed' && <Alert>{t('statements.failed')}</Alert>}
      {data.status === 'ready' && (
        <>
          <p className="muted">
            {data.file_name}
            {data.size !== null && ` · ${formatBytes(language, data.size)}`}
          </p>
          <div className="row statement-actions">
            <Button busy={handing === 'save'} onClick={() => hand('save')}>
              {t('statements.download')}
            </Button>
            {!miniApp?.downloadFile && canShareFile() && (
              <Button variant="secondary" busy={handing === 'share'} onClick={() => hand('share')}>
                {t('statements.share')}
              </Button>
            )}
          </div>
          {failed && <Alert>{t('statements.handFailed')}</Alert>}
          <p className="muted statement-code">
            {t('statements.code', { code: data.code.match(/.{1,4}/g)?.join('-') ?? data.code })}
          </p>
        </>
      )}
    </section>
  )
}
