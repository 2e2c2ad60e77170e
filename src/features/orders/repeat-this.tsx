import { useId, useState } from 'react'
import { Link } from 'wouter'
import type { CreateScheduleBody } from '../../../contract/schedules.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useCreateSchedule } from './people-mutations.ts'
import { CADENCE_RULES, type Cadence, firstRepeat, localTimeZone } from './schedule-timing.ts'

/** What a done screen can repeat: a payment to a person, or an exchange. */
export type Repeatable =
  | Pick<Extract<CreateScheduleBody, { kind: 'transfer' }>, 'kind' | 'template'>
  | Pick<Extract<CreateScheduleBody, { kind: 'exchange' }>, 'kind' | 'template'>

/**
 * "Repeat this" under a completed payment or exchange: every week or every
 * month from a week or a month from now, at this time of day — a schedule
 * (the second look when it pays someone, through the API client).
 */
export function RepeatThis(props: { repeat: Repeatable }) {
  const { t } = useI18n()
  const create = useCreateSchedule()
  const server = useNeedsServer()
  const [open, setOpen] = useState(false)
  const [cadence, setCadence] = useState<Cadence>('monthly')
  const name = useId()

  if (create.isSuccess) {
    return (
      <div className="stack">
        <Notice>{t(`people.repeat.done.${cadence}`)}</Notice>
        <Link href={paths.schedules}>{t('people.schedules.title')}</Link>
      </div>
    )
  }
  if (!open) {
    return (
      <Button variant="secondary" block onClick={() => setOpen(true)}>
        {t('people.repeat.open')}
      </Button>
    )
  }
  const submit = () =>
    create.mutate({
      ...props.repeat,
      rrule: CADENCE_RULES[cadence],
      starts_at: firstRepeat(new Date(), cadence).toISOString(),
      time_zone: localTimeZone(),
    } as CreateScheduleBody)
  return (
    <section className="card stack" aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`}>{t('people.repeat.title')}</h2>
      <fieldset className="choices">
        <legend className="visually-hidden">{t('people.repeat.how')}</legend>
        {(['weekly', 'monthly'] as const).map((option) => (
          <label key={option} className="choice">
            <input
              type="radio"
              name={name}
              checked={cadence === option}
              onChange={() => setCadence(option)}
            />
            <span>{t(`people.repeat.${option}`)}</span>
          </label>
        ))}
      </fieldset>
      <ErrorSummary error={create.error} />
      <Button block busy={create.isPending} onClick={submit} {...server.disabledProps}>
        {t('people.repeat.confirm')}
      </Button>
      {server.reason}
    </section>
  )
}
