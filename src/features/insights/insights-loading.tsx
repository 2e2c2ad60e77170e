import type { useQuery } from '@tanstack/react-query'
import type { SpendingInsights } from '../../../contract/insights.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'

export type SpendingResult = ReturnType<typeof useQuery<SpendingInsights>>

/** A card's body until its answer comes: the skeleton, or why it did not come. */
export function Loading(props: {
  query: SpendingResult | { isPending: boolean; isError: boolean; error: unknown }
}) {
  const { t } = useI18n()
  if (props.query.isError) return <ErrorSummary error={props.query.error} />
  return <Skeleton label={t('insights.loading')} shape="rows" count={3} />
}
