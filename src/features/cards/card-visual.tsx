import { Link } from 'wouter'
import type { Card } from '../../../contract/cards.ts'
import { href } from '../../app/paths.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { cardStatusLabel, formFactorLabel, printedExpiry } from './labels.ts'

/** An account lists its cards without expiry and currency: those lines are left out. */
type PictureCard = Pick<Card, 'nick_name' | 'last4' | 'status' | 'form_factor'> &
  Partial<Pick<Card, 'expiry_month' | 'expiry_year' | 'currency'>>

/**
 * The card as a picture: its name, the last four digits, expiry, form and
 * status. Decorative styling only; every fact is also text.
 */
export function CardVisual(props: { card: PictureCard }) {
  const { t } = useI18n()
  const { card } = props
  return (
    <div className={`card-visual card-visual-${card.status.toLowerCase()}`}>
      <span className="card-visual-name">{card.nick_name ?? t('cards.unnamed')}</span>
      <span className="card-visual-number">
        <span aria-hidden="true">•••• </span>
        <span className="visually-hidden">{t('cards.endingIn', { last4: card.last4 })}</span>
        <span aria-hidden="true">{card.last4}</span>
      </span>
      <span className="card-visual-meta">
        {card.expiry_month !== undefined && card.expiry_year !== undefined && (
          <span>
            {t('cards.expires', { expiry: printedExpiry(card.expiry_month, card.expiry_year) })}
          </span>
        )}
        <span>
          {formFactorLabel(t, card.form_factor)}
          {card.currency && ` · ${card.currency}`}
        </span>
      </span>
      <span className={`card-status card-status-${card.status.toLowerCase()}`}>
        {cardStatusLabel(t, card.status)}
      </span>
    </div>
  )
}

/** Cards as pictures, each leading to its card page: a wallet's, or an account's. */
export function CardLinks(props: { cards: readonly (PictureCard & Pick<Card, 'id'>)[] }) {
  return (
    <ul className="card-list">
      {props.cards.map((card) => (
        <li key={card.id}>
          <Link href={href.card(card.id)} className="card-link">
            <CardVisual card={card} />
          </Link>
        </li>
      ))}
    </ul>
  )
}
