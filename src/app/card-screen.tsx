import { QuietStart } from '../features/activity/activity-feed.tsx'
import { ActivityCard } from '../features/activity/recent-activity.tsx'
import CardPage from '../features/cards/card-page.tsx'
import { useI18n } from '../i18n/i18n.tsx'
import { href } from '../paths.ts'

/**
 * A card with what it paid for: the cards feature and the activity feed,
 * composed here (features never import one another). The feed is the card's
 * own: its payments, its fees, its top-ups, each seen from the card's side.
 */
export default function CardScreen(props: { id: string }) {
  const { t } = useI18n()
  return (
    <CardPage
      id={props.id}
      activity={(card) => (
        <ActivityCard
          title={t('activity.title')}
          filters={{ card_id: card.id }}
          perspective={{ account: true }}
          seeAll={href.activity({ card: card.id, card_last4: card.last4 })}
          count={10}
          empty={<QuietStart text={t('activity.emptyCard')} />}
        />
      )}
    />
  )
}
