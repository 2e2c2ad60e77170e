import { Link } from 'wouter'
import type { Card } from '../../../contract/cards.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import type { RevealedSecrets } from '../../workers/card-secrets.ts'
import { cardStatusLabel, formFactorLabel, groupedPan, printedExpiry } from './labels.ts'

/** An account lists its cards without expiry and currency: those lines are left out. */
type PictureCard = Pick<Card, 'nick_name' | 'last4' | 'status' | 'form_factor'> &
  Partial<Pick<Card, 'expiry_month' | 'expiry_year' | 'currency'>>

/**
 * The card as a picture: its name, the last four digits (or, revealed, the
 * whole number, the expiry and the CVV — on the card, as on the plastic, in
 * monospace that never wraps), form and status. Decorative styling only;
 * every fact is also text.
 */
export function CardVisual(props: { card: PictureCard; secrets?: RevealedSecrets }) {
  const { t } = useI18n()
  const { card, secrets } = props
  const status = card.status.toLowerCase()
  return (
    <div
      className={`card-visual card-visual-${status}${secrets ? ' card-visual-revealed' : ''}`}
      data-testid="card-visual"
    >
      <span className="card-visual-top">
        <span className="card-visual-name">{card.nick_name ?? t('cards.unnamed')}</span>
        {/* An active card needs no badge; a screen reader hears the status all the same. */}
        <span
          className={
            card.status === 'ACTIVE' ? 'visually-hidden' : `card-status card-status-${status}`
          }
        >
          {cardStatusLabel(t, card.status)}
        </span>
      </span>
      <span className="card-visual-chip" aria-hidden="true" />
      {secrets ? (
        <span className="card-visual-number card-visual-secret">
          <span className="visually-hidden">{t('cards.reveal.number')}: </span>
          <span data-testid="card-pan">{groupedPan(secrets.pan)}</span>
        </span>
      ) : (
        <span className="card-visual-number">
          <span aria-hidden="true">•••• </span>
          <span className="visually-hidden">{t('cards.endingIn', { last4: card.last4 })}</span>
          <span aria-hidden="true">{card.last4}</span>
        </span>
      )}
      <span className="card-visual-meta">
        {secrets ? (
          <span className="card-visual-secrets">
            <span>
              <span className="card-visual-label">{t('cards.face.expiry')}</span>
              <span className="card-visual-secret" data-testid="card-expiry">
                <span className="visually-hidden">{t('cards.reveal.expiry')}: </span>
                {secrets.expiry}
              </span>
            </span>
            <span>
              <span className="card-visual-label">{t('cards.face.cvv')}</span>
              <span className="card-visual-secret" data-testid="card-cvv">
                <span className="visually-hidden">{t('cards.reveal.cvv')}: </span>
                {secrets.cvv}
              </span>
            </span>
          </span>
        ) : (
          card.expiry_month !== undefined &&
          card.expiry_year !== undefined && (
            <span className="card-visual-expiry">
              {t('cards.expires', { expiry: printedExpiry(card.expiry_month, card.expiry_year) })}
            </span>
          )
        )}
        <span className="card-visual-form">
          {formFactorLabel(t, card.form_factor)}
          {card.currency && ` · ${card.currency}`}
        </span>
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
