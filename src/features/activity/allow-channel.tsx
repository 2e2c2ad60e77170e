import { useMutation } from '@tanstack/react-query'
import type { CardChannel } from '../../../contract/card-choices.ts'
import type { CardControls } from '../../../contract/card-controls.ts'
import type { MessageKey } from '../../i18n/en.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { api } from '../../net/api.ts'
import { Alert, Button, Notice } from '../../ui/components.tsx'

const ALLOW: Record<CardChannel, MessageKey> = {
  online: 'activity.fix.allow.online',
  contactless: 'activity.fix.allow.contactless',
  chip: 'activity.fix.allow.chip',
  magstripe: 'activity.fix.allow.magstripe',
  atm: 'activity.fix.allow.atm',
}

/**
 * The one-tap fix under a payment the card's controls declined for its
 * channel (issue 30): "Allow online payments" turns that channel on again.
 * Loosening the controls needs the second look: the server asks for it, and
 * the API client asks the person in place and sends the change again.
 */
export function AllowChannel(props: { cardId: string; channel: CardChannel }) {
  const { t } = useI18n()
  const path = `/issuing/cards/${encodeURIComponent(props.cardId)}/controls`
  const allow = useMutation({
    mutationFn: async () => {
      const controls = await api.v1.get<CardControls>(path)
      return api.v1.put<CardControls>(path, {
        ...controls,
        channels: { ...controls.channels, [props.channel]: true },
      })
    },
  })
  if (allow.isSuccess) return <Notice>{t('activity.fix.allowed')}</Notice>
  return (
    <>
      <Button variant="secondary" busy={allow.isPending} onClick={() => allow.mutate()}>
        {t(ALLOW[props.channel])}
      </Button>
      {allow.isError && <Alert>{errorMessage(allow.error, t)}</Alert>}
    </>
  )
}
