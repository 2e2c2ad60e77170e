import { Link } from 'wouter'
import { href } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'

/** Home's way to the cards; small, so the cards pages stay out of the first load. */
export function CardsShortcut() {
  const { t } = useI18n()
  return (
    <p>
      <Link href={href.cards()}>{t('cards.homeLink')}</Link>
    </p>
  )
}
