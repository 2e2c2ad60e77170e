import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { formatLocale } from '../i18n/digits.ts'
import { useI18n } from '../i18n/i18n.tsx'

/** The newest answer in the cache, restored or fresh: what "updated" refers to. */
function useLastUpdated(): number | undefined {
  const queryClient = useQueryClient()
  const cache = queryClient.getQueryCache()
  return useSyncExternalStore(
    (listener) => cache.subscribe(listener),
    () => {
      let newest = 0
      for (const query of cache.getAll()) newest = Math.max(newest, query.state.dataUpdatedAt)
      return newest > 0 ? newest : undefined
    },
  )
}

/** Re-renders every `ms` while `active`; returns the time of the last render. */
function useNow(ms: number, active: boolean): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms, active])
  return now
}

/** "5 minutes ago", "yesterday", "now", in the person's language. */
export function relativeTime(at: number, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(formatLocale(language), { numeric: 'auto' })
  // Whole units that have passed: 90 minutes is "1 hour ago", as people say it.
  const seconds = Math.trunc((at - now) / 1000)
  if (Math.abs(seconds) < 60) return format.format(0, 'second')
  const minutes = Math.trunc(seconds / 60)
  if (Math.abs(minutes) < 60) return format.format(minutes, 'minute')
  const hours = Math.trunc(minutes / 60)
  if (Math.abs(hours) < 24) return format.format(hours, 'hour')
  return format.format(Math.trunc(hours / 24), 'day')
}

/**
 * While offline: that we are, and how old what is on screen is ("Offline ·
 * updated 5 minutes ago"), ticking. Assistive technology hears the moment
 * once ("at 14:05"), not a new sentence every minute.
 */
export default function OfflineNotice() {
  const { t, language } = useI18n()
  const updated = useLastUpdated()
  const now = useNow(30_000, updated !== undefined)
  if (updated === undefined) {
    return (
      <div className="banner" role="status">
        {t('pwa.offline')}
      </div>
    )
  }
  const at = new Intl.DateTimeFormat(formatLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  })
  return (
    <div className="banner" role="status">
      <span className="visually-hidden">
        {t('offline.updatedAt', { time: at.format(updated) })}
      </span>
      <span aria-hidden="true">
        {t('offline.updated', { time: relativeTime(updated, now, language) })}
      </span>
    </div>
  )
}
