import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { EventKind } from '../../../contract/events.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { Button } from '../../ui/components.tsx'
import { KIND_GROUPS, kindLabel } from './kind-groups.ts'
import { useSavePreferences } from './mutations.ts'
import {
  currentSubscription,
  PushDeniedError,
  pushSupport,
  turnPushOff,
  turnPushOn,
} from './push.ts'
import { notificationKeys, preferencesQuery, pushConfigQuery } from './queries.ts'
import './notifications.css'

const deviceKey = [...notificationKeys.all, 'this-device'] as const

/**
 * Profile's notification settings: web push on this device (or why it is not
 * available here), and which kinds reach the person outside the app.
 */
export function PushSettings() {
  const { t } = useI18n()
  const support = pushSupport()
  return (
    <section className="card stack" aria-labelledby="push-title">
      <h2 id="push-title">{t('push.title')}</h2>
      <p className="muted">{t('push.lead')}</p>
      {support === 'ok' ? (
        <DeviceSwitch />
      ) : (
        <p className="notice" data-testid="push-unavailable">
          {t(
            support === 'ios'
              ? 'push.unavailableIos'
              : support === 'telegram'
                ? 'push.unavailableTelegram'
                : 'push.unavailable',
          )}
        </p>
      )}
      <KindPreferences />
    </section>
  )
}

function DeviceSwitch() {
  const { t } = useI18n()
  const queryClient = useQueryClient()
  const config = useQuery(pushConfigQuery())
  const device = useQuery({
    queryKey: deviceKey,
    queryFn: async () => (await currentSubscription()) !== null,
    networkMode: 'always',
  })
  const [problem, setProblem] = useState<'denied' | 'unconfirmed' | 'failed' | undefined>()
  const toggle = useMutation({
    networkMode: 'always',
    mutationFn: async (on: boolean) => {
      if (on) await turnPushOn(config.data!.public_key)
      else await turnPushOff()
      return on
    },
    onMutate: () => setProblem(undefined),
    onSuccess: (on) => queryClient.setQueryData(deviceKey, on),
    onError: (error) =>
      setProblem(
        error instanceof PushDeniedError
          ? 'denied'
          : // The second look was asked for and not given: nothing failed, nothing changed.
            error instanceof ApiError && error.code === 'STEP_UP_REQUIRED'
            ? 'unconfirmed'
            : 'failed',
      ),
  })
  const on = device.data === true
  return (
    <div className="stack">
      <div className="row">
        <span data-testid="push-state">{t(on ? 'push.enabled' : 'push.disabled')}</span>
        <Button
          variant={on ? 'secondary' : 'primary'}
          busy={toggle.isPending}
          disabled={!config.data || device.isPending}
          onClick={() => toggle.mutate(!on)}
        >
          {toggle.isPending && !on ? t('push.turningOn') : t(on ? 'push.off' : 'push.on')}
        </Button>
      </div>
      {problem && (
        <p className="error" role="alert">
          {t(
            problem === 'denied'
              ? 'push.denied'
              : problem === 'unconfirmed'
                ? 'error.STEP_UP_REQUIRED'
                : 'push.failed',
          )}
        </p>
      )}
    </div>
  )
}

function KindPreferences() {
  const { t } = useI18n()
  const preferences = useQuery(preferencesQuery())
  const save = useSavePreferences()
  // The person's last choice shows at once; the server's answer follows it.
  const [chosen, setChosen] = useState<readonly EventKind[] | null>(null)
  if (!preferences.data) return null
  const muted = new Set<EventKind>(chosen ?? preferences.data.muted)
  const flip = (kind: EventKind, wanted: boolean) => {
    const next = new Set(muted)
    if (wanted) next.delete(kind)
    else next.add(kind)
    setChosen([...next])
    save.mutate([...next])
  }
  return (
    <fieldset className="push-kinds">
      <legend>{t('push.kinds')}</legend>
      <p className="muted">{t('push.kindsLead')}</p>
      {KIND_GROUPS.map((group) => (
        <div key={group.label} className="stack">
          <h3>{t(group.label)}</h3>
          {group.kinds.map((kind) => (
            <label key={kind} className="push-kind">
              <input
                type="checkbox"
                checked={!muted.has(kind)}
                onChange={(event) => flip(kind, event.target.checked)}
              />
              {kindLabel(t, kind)
                .replace(/:\s*…$/, '')
                .replace(/ …$/, '')}
            </label>
          ))}
        </div>
      ))}
      <div className="stack">
        <h3>{t('push.alwaysOn')}</h3>
        <p className="muted">{t('push.alwaysOnLead')}</p>
      </div>
      {save.isSuccess && (
        <p className="muted" role="status">
          {t('push.saved')}
        </p>
      )}
    </fieldset>
  )
}
