import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Currency } from '../../../contract/catalog.ts'
import type { Schedule, ScheduleRun } from '../../../contract/schedules.ts'
import { problemWords } from '../../i18n/error-message.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { type Translate, useI18n } from '../../i18n/i18n.tsx'
import { formatMoney } from '../../i18n/money.ts'
import { paths } from '../../paths.ts'
import { useOffers } from '../../queries/tenant.ts'
import { Button } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { contactText } from './contact.ts'
import { useCreateSchedule, useDeleteSchedule, useUpdateSchedule } from './people-mutations.ts'
import { recentPeopleQuery, schedulesQuery } from './people-queries.ts'
import { currenciesQuery, walletsQuery } from './queries.ts'
import { cadenceOf, localTimeZone, nextWeekday } from './schedule-timing.ts'
import './orders.css'
import './people.css'

/** The preset's buy: €50 of BTC every Monday at 09:00, at the market price of the moment. */
const DCA = { from: 'EUR', to: 'BTC', amount: '50', weekday: 1, hour: 9 } as const

/**
 * /schedules — the payments that repeat: what each does, how often, its next
 * run and what its latest runs did; pause, resume, skip the next run, delete
 * (asked first). A preset sets up the classic one: buy €50 of BTC every Monday.
 */
export default function SchedulesPage() {
  const { t } = useI18n()
  const schedules = useQuery(schedulesQuery())
  const currencies = useQuery(currenciesQuery())
  const remove = useDeleteSchedule()
  const [deleting, setDeleting] = useState<Schedule>()
  const list = schedules.data?.data ?? []

  return (
    <div className="stack">
      <PageHeader
        id="schedules-title"
        title={t('people.schedules.title')}
        back={{ href: paths.move, label: t('nav.move') }}
        lead={t('people.schedules.lead')}
      />
      {schedules.isPending ? (
        <Pending paused={schedules.isPaused} shape="rows" />
      ) : schedules.isError ? (
        <div className="stack">
          <ErrorSummary error={schedules.error} />
          <Button variant="secondary" onClick={() => void schedules.refetch()}>
            {t('error.retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <section className="card empty-state">
          <p className="lead">{t('people.schedules.empty')}</p>
        </section>
      ) : (
        <ul className="request-list" aria-labelledby="schedules-title">
          {list.map((schedule) => (
            <ScheduleRow
              key={schedule.id}
              schedule={schedule}
              currencies={currencies.data?.data ?? []}
              onDelete={() => {
                remove.reset()
                setDeleting(schedule)
              }}
            />
          ))}
        </ul>
      )}
      {currencies.data && <DcaPreset currencies={currencies.data.data} />}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('people.schedules.deleteTitle')}
        message={t('people.schedules.deleteMessage')}
        confirmLabel={t('people.schedules.delete')}
        busy={remove.isPending}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(undefined) })
        }
        onCancel={() => setDeleting(undefined)}
      >
        <ErrorSummary error={remove.error} />
      </ConfirmDialog>
    </div>
  )
}

function ScheduleRow(props: { schedule: Schedule; currencies: Currency[]; onDelete: () => void }) {
  const { t, language } = useI18n()
  const { schedule } = props
  const update = useUpdateSchedule()
  const server = useNeedsServer()
  const what = useScheduleWhat(schedule, props.currencies)
  const cadence = cadenceOf(schedule.rrule)
  const next = schedule.next_runs[0]
  const patch = (body: { paused?: boolean; skip_next?: true }) =>
    update.mutate({ id: schedule.id, body })
  return (
    <li className="card stack request-row">
      <div className="request-row-head">
        <p className="request-row-amount">{what}</p>
        <p className="request-status">{t(`people.schedules.status.${schedule.status}`)}</p>
      </div>
      <p>{cadence ? t(`people.schedules.every.${cadence}`) : schedule.rrule}</p>
      <p className="muted">
        {next
          ? t('people.schedules.next', { date: formatDateTime(language, next) })
          : t('people.schedules.noNext')}
      </p>
      {schedule.recent_runs.length > 0 && (
        <details>
          <summary>{t('people.schedules.runs', { count: schedule.recent_runs.length })}</summary>
          <ul className="schedule-runs">
            {schedule.recent_runs.map((run) => (
              <li key={run.id}>
                <span>{formatDateTime(language, run.occurrence_at)}</span>
                <span>{runWords(t, run)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      <ErrorSummary error={update.error} />
      <div className="share-request-actions">
        {schedule.status === 'ACTIVE' && (
          <>
            <Button
              variant="secondary"
              busy={update.isPending && update.variables?.body.paused === true}
              onClick={() => patch({ paused: true })}
              {...server.disabledProps}
            >
              {t('people.schedules.pause')}
            </Button>
            {next && (
              <Button
                variant="secondary"
                busy={update.isPending && update.variables?.body.skip_next === true}
                onClick={() => patch({ skip_next: true })}
                {...server.disabledProps}
              >
                {t('people.schedules.skip')}
              </Button>
            )}
          </>
        )}
        {schedule.status === 'PAUSED' && (
          <Button
            variant="secondary"
            busy={update.isPending}
            onClick={() => patch({ paused: false })}
            {...server.disabledProps}
          >
            {t('people.schedules.resume')}
          </Button>
        )}
        <Button variant="danger" onClick={props.onDelete} {...server.disabledProps}>
          {t('people.schedules.delete')}
        </Button>
      </div>
    </li>
  )
}

/** "€20.00 to Anna S.", "€50.00 → BTC", "€100.00 withdrawn": what each run does. */
function useScheduleWhat(schedule: Schedule, currencies: Currency[]): string {
  const { t, language } = useI18n()
  const recent = useQuery({ ...recentPeopleQuery(), enabled: schedule.kind === 'transfer' })
  const money = (uuid: string, amount: string) => {
    const currency = currencies.find((candidate) => candidate.uuid === uuid)
    return formatMoney(language, {
      amount,
      currency: currency?.code ?? '',
      chain: currency?.chain ?? null,
    })
  }
  const code = (uuid: string) => currencies.find((c) => c.uuid === uuid)?.code ?? '…'
  const template = schedule.template
  if ('to' in template) {
    const to = template.to
    const name =
      'user_id' in to
        ? (recent.data?.data.find((person) => person.user_id === to.user_id)?.display_name ??
          t('people.schedules.someone'))
        : contactText(to)
    return t('people.schedules.what.transfer', {
      amount: money(template.currency_uuid, template.amount),
      name,
    })
  }
  if ('to_uuid' in template) {
    return t('people.schedules.what.exchange', {
      amount: money(template.from_uuid, template.amount_from),
      to: code(template.to_uuid),
    })
  }
  return t('people.schedules.what.withdrawal', {
    amount: money(template.from_uuid, template.amount_from),
  })
}

/** What a run did, or why it did not. */
function runWords(t: Translate, run: ScheduleRun): string {
  const status = t(`people.schedules.run.${run.status}`)
  if (!run.reason) return status
  const reason =
    run.reason === 'PRICE_MOVED'
      ? t('people.schedules.reason.PRICE_MOVED')
      : run.reason === 'SKIPPED_BY_YOU'
        ? t('people.schedules.reason.SKIPPED_BY_YOU')
        : (problemWords(run.reason, t) ?? run.reason)
  return `${status} · ${reason}`
}

/** "Buy €50 of BTC every Monday": one confirmation away, where the tenant exchanges euros into bitcoin. */
function DcaPreset(props: { currencies: Currency[] }) {
  const { t, language } = useI18n()
  const exchanges = useOffers('exchange')
  const wallets = useQuery(walletsQuery())
  const create = useCreateSchedule()
  const [asking, setAsking] = useState(false)
  const from = props.currencies.find((c) => c.code === DCA.from && c.type === 'fiat')
  const to = props.currencies.find((c) => c.code === DCA.to)
  const wallet = wallets.data?.data[0]
  if (!exchanges || !from || !to || !wallet) return null
  const title = t('people.dca.title', {
    amount: formatMoney(language, { amount: DCA.amount, currency: DCA.from, chain: null }),
    to: DCA.to,
  })
  return (
    <section className="card stack" aria-labelledby="dca-title">
      <h2 id="dca-title">{title}</h2>
      <p className="muted">{t('people.dca.lead')}</p>
      {create.isSuccess ? (
        <p className="alert alert-success" role="status">
          {t('people.dca.done')}
        </p>
      ) : (
        <Button variant="secondary" onClick={() => setAsking(true)}>
          {t('people.dca.setUp')}
        </Button>
      )}
      <ConfirmDialog
        open={asking}
        title={title}
        message={t('people.dca.confirmMessage')}
        confirmLabel={t('people.dca.setUp')}
        busy={create.isPending}
        onConfirm={() =>
          create.mutate(
            {
              kind: 'exchange',
              template: {
                wallet_uuid: wallet.uuid,
                from_uuid: from.uuid,
                to_uuid: to.uuid,
                amount_from: DCA.amount,
              },
              rrule: 'FREQ=WEEKLY;BYDAY=MO',
              starts_at: nextWeekday(new Date(), DCA.weekday, DCA.hour).toISOString(),
              time_zone: localTimeZone(),
            },
            { onSuccess: () => setAsking(false) },
          )
        }
        onCancel={() => setAsking(false)}
      >
        <ErrorSummary error={create.error} />
      </ConfirmDialog>
    </section>
  )
}
