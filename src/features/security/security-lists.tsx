import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { Session, SessionCreation, SessionCreationKind } from '../../../contract/security.ts'
import type { MessageKey } from '../../i18n/en.ts'
import type { Translate } from '../../i18n/i18n.tsx'
import { useI18n } from '../../i18n/i18n.tsx'
import { paths } from '../../paths.ts'
import { Skeleton } from '../../ui/components.tsx'
import { LoadError } from '../../ui/load-error.tsx'

/** A list's skeleton while it loads, its error with a retry, then `children` with its rows. */
export function Loaded<Row>(props: {
  query: UseQueryResult<{ data: Row[] }>
  loading: string
  children: (rows: Row[]) => ReactNode
}) {
  const { t } = useI18n()
  const { query } = props
  if (query.isPending) return <Skeleton label={props.loading} shape="rows" />
  if (query.isError) {
    return (
      <LoadError
        error={query.error}
        what="account"
        back={{ href: paths.profile, label: t('security.back') }}
        onRetry={() => void query.refetch()}
      />
    )
  }
  return props.children(query.data.data)
}

export const deviceName = (session: Session | string | undefined, t: Translate) =>
  (typeof session === 'object' && session.device) || t('sessions.unknownDevice')

const CREATION_WORDS: Record<SessionCreationKind, MessageKey> = {
  webhook_endpoint: 'sessions.created.webhook_endpoint',
  push_subscription: 'sessions.created.push_subscription',
  api_key: 'sessions.created.api_key',
}

/**
 * What a session set up, in words: "webhook https://…", "API key “CI”". `brief`
 * (a session's row, a narrow column) names a webhook's URL by its host alone;
 * the question before removing it shows the whole URL.
 */
export function creationName(item: SessionCreation, t: Translate, brief = false): string {
  const name = item.name ?? t('sessions.created.unknownDevice')
  return t(CREATION_WORDS[item.kind], {
    name: brief && item.kind === 'webhook_endpoint' ? hostOf(name) : name,
  })
}

/** A URL's host ("hooks.example.com"); anything else (a description) as it is. */
function hostOf(name: string): string {
  try {
    return new URL(name).host || name
  } catch {
    return name
  }
}
