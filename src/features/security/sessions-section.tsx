import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Session, SessionsEnded } from '../../../contract/security.ts'
import { formatMoment } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button, Notice } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { useEndOtherSessions, useEndSession } from './mutations.ts'
import { sessionsQuery } from './queries.ts'
import { creationName, deviceName, Loaded } from './security-lists.tsx'

/** Which question is open: one session's sign-out, all the others', or then what they set up. */
type Asking = Session | 'others' | 'created' | undefined

/**
 * Every place the person is signed in, with what each set up (webhooks,
 * notification devices, API keys), a way to sign any other one out, or all
 * of them — and then, when those set anything up, whether to remove that too,
 * named one by one: a thief signed out keeps no way of watching or acting.
 */
export function Sessions() {
  const { t } = useI18n()
  const list = useQuery(sessionsQuery())
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const server = useNeedsServer()
  const [asking, setAsking] = useState<Asking>()
  const [ended, setEnded] = useState<SessionsEnded>()
  const others = list.data?.data.filter((session) => !session.current) ?? []
  const created = others.flatMap((session) => session.created)

  const signOutOthers = (removeCreated: boolean) =>
    endOthers.mutate(removeCreated, {
      onSuccess: (answer) => {
        setEnded(answer)
        setAsking(undefined)
      },
    })
  const confirm = () => {
    if (asking === 'others') {
      if (created.length > 0) setAsking('created')
      else signOutOthers(false)
    } else if (typeof asking === 'object') {
      end.mutate(asking.id, { onSuccess: () => setAsking(undefined) })
    }
  }
  const cancel = () => {
    end.reset()
    endOthers.reset()
    setAsking(undefined)
  }
  const failure = end.error ?? endOthers.error

  return (
    <section className="card stack" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <p className="muted">{t('sessions.lead')}</p>
      <Loaded query={list} loading={t('sessions.loading')}>
        {(sessions) => (
          <ul className="security-list">
            {sessions.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                onEnd={() => setAsking(session)}
                disabled={server.offline}
              />
            ))}
          </ul>
        )}
      </Loaded>
      {ended && (
        <Notice>
          {ended.removed.length > 0
            ? t('sessions.endedRemoved', {
                count: String(ended.ended),
                removed: String(ended.removed.length),
              })
            : t('sessions.ended', { count: String(ended.ended) })}
        </Notice>
      )}
      {others.length > 0 && (
        <div className="row">
          <Button
            variant="danger"
            onClick={() => {
              setEnded(undefined)
              setAsking('others')
            }}
            {...server.disabledProps}
          >
            {t('sessions.endOthers')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking !== undefined && asking !== 'created'}
        title={
          asking === 'others'
            ? t('sessions.endOthersTitle', { count: String(others.length) })
            : t('sessions.endTitle', { device: deviceName(asking, t) })
        }
        message={t(asking === 'others' ? 'sessions.endOthersBody' : 'sessions.endBody')}
        confirmLabel={t(asking === 'others' ? 'sessions.endOthers' : 'sessions.end')}
        busy={end.isPending || endOthers.isPending}
        onConfirm={confirm}
        onCancel={cancel}
      >
        {failure && <ErrorSummary error={failure} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'created'}
        title={t('sessions.removeTitle')}
        confirmLabel={t('sessions.signOutAndRemove')}
        alternative={{ label: t('sessions.signOutOnly'), onChoose: () => signOutOthers(false) }}
        busy={endOthers.isPending}
        onConfirm={() => signOutOthers(true)}
        onCancel={cancel}
      >
        <p>{t('sessions.removeBody')}</p>
        <ul className="security-created">
          {created.map((item) => (
            <li key={item.id}>{creationName(item, t)}</li>
          ))}
        </ul>
        {created.some((item) => item.kind === 'api_key') && (
          <p className="muted">{t('sessions.removeKeysNote')}</p>
        )}
        {endOthers.error && <ErrorSummary error={endOthers.error} />}
      </ConfirmDialog>
    </section>
  )
}

function SessionRow(props: { session: Session; onEnd: () => void; disabled: boolean }) {
  const { t, language } = useI18n()
  const { session } = props
  const where = [
    t(session.app_env === 'telegram' ? 'sessions.telegram' : 'sessions.browser'),
    session.location,
  ]
    .filter(Boolean)
    .join(' · ')
  return (
    <li className="security-row">
      <div className="security-row-text">
        <p className="security-row-title">
          {deviceName(session, t)}
          {session.current && <span className="security-badge">{t('sessions.thisDevice')}</span>}
        </p>
        <p className="muted">{where}</p>
        <p className="muted">
          {t('sessions.signedIn', { date: formatMoment(session.created_at, language) ?? '' })}
          {' · '}
          {t('sessions.lastSeen', { date: formatMoment(session.last_seen_at, language) ?? '' })}
        </p>
        {session.created.length > 0 && (
          <p className="muted">
            {t('sessions.added', {
              what: session.created.map((item) => creationName(item, t, true)).join(', '),
            })}
          </p>
        )}
      </div>
      {!session.current && (
        <Button
          variant="quiet"
          onClick={props.onEnd}
          disabled={props.disabled}
          aria-label={t('sessions.endNamed', { device: deviceName(session, t) })}
        >
          {t('sessions.end')}
        </Button>
      )}
    </li>
  )
}
