import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { CARD_CHANNELS, type CardChannel } from '../../../contract/card-choices.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import type { CardDetail } from '../../../contract/cards.ts'
import {
  MERCHANT_CATEGORIES,
  MERCHANT_CATEGORY_GROUPS,
} from '../../../contract/merchant-categories.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Notice, Skeleton } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { CardError } from './card-secrets-panel.tsx'
import { SaveRow } from './card-settings.tsx'
import { CategoryLimits, CountryList, MerchantList } from './controls-lists.tsx'
import { useCardControls } from './mutations.ts'
import { cardControlsQuery } from './queries.ts'

const CHANNEL: Record<CardChannel, MessageKey> = {
  online: 'cards.controls.channel.online',
  contactless: 'cards.controls.channel.contactless',
  chip: 'cards.controls.channel.chip',
  magstripe: 'cards.controls.channel.magstripe',
  atm: 'cards.controls.channel.atm',
}

/**
 * What the card may be used for (issue 30): the ways to pay, the kinds of
 * merchant, the countries and the merchants it refuses, and caps per kind of
 * spending. Saved as one set; a change that turns something back on asks for
 * the second look (the API client asks in place), a tightening never does.
 */
export function ControlsEditor(props: { card: CardDetail; disabled: boolean }) {
  const { t } = useI18n()
  const stored = useQuery(cardControlsQuery(props.card.id))
  if (stored.isPending) return <Skeleton label={t('cards.controls.loading')} shape="rows" />
  if (stored.isError) return <ErrorSummary error={stored.error} />
  return <ControlsForm card={props.card} stored={stored.data} disabled={props.disabled} />
}

function ControlsForm(props: { card: CardDetail; stored: CardControls; disabled: boolean }) {
  const { t, language } = useI18n()
  const save = useCardControls(props.card)
  const [draft, setDraft] = useState<CardControls>(props.stored)
  const change = (next: Partial<CardControls>) => {
    setDraft((current) => ({ ...current, ...next }))
    save.reset()
  }
  const blocked = new Set(draft.blocked_categories)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate(draft, { onSuccess: setDraft })
  }

  return (
    <form className="stack card-controls" onSubmit={submit} noValidate>
      <fieldset className="controls-group" disabled={props.disabled}>
        <legend>{t('cards.controls.channels')}</legend>
        {CARD_CHANNELS.map((channel) => (
          <label key={channel} className="controls-switch">
            <input
              type="checkbox"
              role="switch"
              aria-checked={draft.channels[channel]}
              checked={draft.channels[channel]}
              onChange={(event) =>
                change({ channels: { ...draft.channels, [channel]: event.target.checked } })
              }
            />
            {t(CHANNEL[channel])}
          </label>
        ))}
      </fieldset>
      <fieldset className="controls-group" disabled={props.disabled}>
        <legend>{t('cards.controls.categories')}</legend>
        <p className="muted">{t('cards.controls.categoriesLead')}</p>
        {MERCHANT_CATEGORY_GROUPS.map((group) => (
          <label key={group} className="controls-switch">
            <input
              type="checkbox"
              checked={blocked.has(group)}
              onChange={(event) =>
                change({
                  blocked_categories: event.target.checked
                    ? MERCHANT_CATEGORY_GROUPS.filter((g) => g === group || blocked.has(g))
                    : draft.blocked_categories.filter((g) => g !== group),
                })
              }
            />
            {MERCHANT_CATEGORIES[group].names[language]}
          </label>
        ))}
      </fieldset>
      <CountryList
        legend={t('cards.controls.blockedCountries')}
        empty={t('cards.controls.noBlockedCountries')}
        codes={draft.blocked_countries}
        disabled={props.disabled}
        onChange={(codes) => change({ blocked_countries: codes })}
      />
      <fieldset className="controls-group" disabled={props.disabled}>
        <legend>{t('cards.controls.onlyIn')}</legend>
        <label className="controls-switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={draft.allowed_countries !== null}
            checked={draft.allowed_countries !== null}
            onChange={(event) => change({ allowed_countries: event.target.checked ? [] : null })}
          />
          {t('cards.controls.onlyInSwitch')}
        </label>
        {draft.allowed_countries !== null && (
          <CountryList
            legend={t('cards.controls.allowedCountries')}
            empty={t('cards.controls.noAllowedCountries')}
            codes={draft.allowed_countries}
            disabled={props.disabled}
            onChange={(codes) => change({ allowed_countries: codes })}
          />
        )}
      </fieldset>
      <MerchantList
        names={draft.blocked_merchants}
        disabled={props.disabled}
        onChange={(names) => change({ blocked_merchants: names })}
      />
      <CategoryLimits
        currency={props.card.currency}
        limits={draft.category_limits}
        disabled={props.disabled}
        onChange={(limits) => change({ category_limits: limits })}
      />
      <p className="muted">{t('cards.controls.secondLook')}</p>
      <SaveRow label={t('cards.controls.save')} busy={save.isPending} disabled={props.disabled} />
      {save.isSuccess && <Notice>{t('cards.controls.saved')}</Notice>}
      {save.isError && <CardError error={save.error} />}
    </form>
  )
}
