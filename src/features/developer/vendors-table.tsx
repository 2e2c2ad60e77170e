import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useId } from 'react'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending } from '../../ui/online.tsx'
import { vendorsQuery } from './queries.ts'

/** The providers behind the deployment, each with its health in words (never colour alone). */
export function VendorsTable() {
  const { t, language } = useI18n()
  const titleId = useId()
  const vendors = useQuery(vendorsQuery())

  let body: ReactNode
  if (vendors.isPending) {
    body = <Pending paused={vendors.isPaused} />
  } else if (vendors.isError) {
    body = <ErrorSummary error={vendors.error} />
  } else if (vendors.data.data.length === 0) {
    body = <p className="muted">{t('dev.vendors.empty')}</p>
  } else {
    body = (
      // A region that scrolls sideways on a phone: reachable and named for the keyboard.
      <section
        className="dev-table-scroll"
        aria-label={t('dev.vendors.title')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keys
        tabIndex={0}
      >
        <table className="dev-table">
          <caption className="visually-hidden">{t('dev.vendors.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dev.vendors.kind')}</th>
              <th scope="col">{t('dev.vendors.name')}</th>
              <th scope="col">{t('dev.vendors.mode')}</th>
              <th scope="col">{t('dev.vendors.health')}</th>
              <th scope="col">{t('dev.vendors.checked')}</th>
            </tr>
          </thead>
          <tbody>
            {vendors.data.data.map((vendor) => (
              <tr key={`${vendor.kind}:${vendor.name}`}>
                <th scope="row">{t(`dev.vendors.kind.${vendor.kind}`)}</th>
                <td data-label={t('dev.vendors.name')}>{vendor.name}</td>
                <td data-label={t('dev.vendors.mode')}>{t(`dev.vendors.mode.${vendor.mode}`)}</td>
                <td data-label={t('dev.vendors.health')}>
                  <span className={`dev-health dev-health-${vendor.health}`}>
                    {t(`dev.vendors.health.${vendor.health}`)}
                  </span>
                </td>
                <td data-label={t('dev.vendors.checked')}>
                  {formatDateTime(language, vendor.checked_at)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    )
  }

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <div className="row dev-header">
        <h2 id={titleId}>{t('dev.vendors.title')}</h2>
        <Button
          variant="secondary"
          busy={vendors.isFetching && !vendors.isPending}
          onClick={() => vendors.refetch()}
        >
          {t('dev.vendors.refresh')}
        </Button>
      </div>
      <p className="muted">{t('dev.vendors.lead')}</p>
      {body}
    </section>
  )
}
