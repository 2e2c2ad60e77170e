import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { EVENT_KINDS, type EventKind } from '../../../contract/event-kinds.ts'
import type {
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookSecret,
} from '../../../contract/events.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { api } from '../../net/api.ts'
import { Button } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { TextField } from '../../ui/fields.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { kindLabel } from './kind-groups.ts'
import { notificationKeys } from './queries.ts'
import './notifications.css'

const webhookKeys = {
  all: [...notificationKeys.all, 'webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
}

const endpointsQuery = {
  queryKey: webhookKeys.list(),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.v1.get<WebhookEndpointList>('/developer/webhooks?limit=100', { signal }),
}

/**
 * The developer area's webhooks: endpoints (URL, event kinds, enabled), each
 * with its signing secret (shown on asking, rotated with a day's overlap), and
 * its delivery log with "send again".
 */
export function WebhooksSection() {
  const { t } = useI18n()
  const titleId = useId()
  const list = useQuery(endpointsQuery)
  const [adding, setAdding] = useState(false)
  const server = useNeedsServer()
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <div className="row dev-header">
        <h2 id={titleId}>{t('webhooks.title')}</h2>
        {!adding && (
          <Button onClick={() => setAdding(true)} {...server.disabledProps}>
            {t('webhooks.add')}
          </Button>
        )}
      </div>
      <p className="muted">{t('webhooks.lead')}</p>
      {server.reason}
      {adding && <AddEndpoint onDone={() => setAdding(false)} />}
      {list.isPending ? (
        <Pending paused={list.isPaused} />
      ) : list.isError ? (
        <ErrorSummary error={list.error} />
      ) : list.data.data.length === 0 ? (
        <p className="muted">{t('webhooks.empty')}</p>
      ) : (
        <ul className="webhook-list">
          {list.data.data.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} />
          ))}
        </ul>
      )}
    </section>
  )
}

function KindChoices(props: { chosen: EventKind[]; onChange: (kinds: EventKind[]) => void }) {
  const { t } = useI18n()
  const all = props.chosen.length === 0
  return (
    <fieldset className="push-kinds">
      <legend>{t('webhooks.kinds')}</legend>
      <label className="push-kind">
        <input type="checkbox" checked={all} onChange={() => props.onChange([])} />
        {t('webhooks.allKinds')}
      </label>
      {EVENT_KINDS.map((kind) => (
        <label key={kind} className="push-kind">
          <input
            type="checkbox"
            checked={props.chosen.includes(kind)}
            onChange={(event) =>
              props.onChange(
                event.target.checked
                  ? [...props.chosen, kind]
                  : props.chosen.filter((chosen) => chosen !== kind),
              )
            }
          />
          <span>
            {kindLabel(t, kind)} <code className="muted">{kind}</code>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

function AddEndpoint(props: { onDone: () => void }) {
  const { t } = useI18n()
  const queryClient = useQueryClient()
  const [url, setUrl] = useState('')
  const [kinds, setKinds] = useState<EventKind[]>([])
  const add = useMutation({
    mutationFn: () =>
      api.v1.post<WebhookEndpoint>('/developer/webhooks', { url: url.trim(), event_kinds: kinds }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.list() })
      props.onDone()
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    add.mutate()
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {add.isError && <ErrorSummary error={add.error} />}
      <TextField
        label={t('webhooks.url')}
        hint={t('webhooks.urlHint')}
        type="url"
        inputMode="url"
        placeholder="https://"
        value={url}
        required
        onChange={(event) => setUrl(event.target.value)}
      />
      <KindChoices chosen={kinds} onChange={setKinds} />
      <div className="row">
        <Button type="submit" busy={add.isPending} disabled={url.trim() === ''}>
          {add.isPending ? t('webhooks.adding') : t('webhooks.add')}
        </Button>
        <Button variant="secondary" onClick={props.onDone} disabled={add.isPending}>
          {t('action.cancel')}
        </Button>
      </div>
    </form>
  )
}

function EndpointRow(props: { endpoint: WebhookEndpoint }) {
  const { t, language } = useI18n()
  const { endpoint } = props
  const queryClient = useQueryClient()
  const headingId = useId()
  const [confirm, setConfirm] = useState<'delete' | 'rotate'>()
  const [secret, setSecret] = useState<WebhookSecret>()
  const [open, setOpen] = useState(false)
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() })
  const path = `/developer/webhooks/${endpoint.id}`
  const toggle = useMutation({
    mutationFn: () => api.v1.patch<WebhookEndpoint>(path, { enabled: !endpoint.enabled }),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: () => api.v1.delete<void>(path),
    onSuccess: async () => {
      setConfirm(undefined)
      await refresh()
    },
  })
  const reveal = useMutation({
    mutationFn: () => api.v1.get<WebhookSecret>(`${path}/secret`),
    onSuccess: setSecret,
  })
  const rotate = useMutation({
    mutationFn: () => api.v1.post<WebhookSecret>(`${path}/rotate-secret`, {}),
    onSuccess: async (rotated) => {
      setSecret(rotated)
      setConfirm(undefined)
      await refresh()
    },
  })
  const error = toggle.error ?? reveal.error
  return (
    <li className="webhook stack" aria-labelledby={headingId}>
      <div className="webhook-head">
        <h3 id={headingId} className="webhook-url">
          {endpoint.url}
        </h3>
        <span className={endpoint.enabled ? 'dev-badge' : 'dev-badge dev-badge-off'}>
          {t(endpoint.enabled ? 'webhooks.enabled' : 'webhooks.disabled')}
        </span>
      </div>
      <p className="muted">
        {endpoint.event_kinds.length === 0
          ? t('webhooks.allKinds')
          : endpoint.event_kinds.map((kind) => kindLabel(t, kind)).join(', ')}
      </p>
      {error && <ErrorSummary error={error} />}
      {secret && (
        <div className="stack">
          <span>{t('webhooks.secret')}</span>
          <div className="row">
            <code className="webhook-secret">{secret.secret}</code>
            <CopyButton text={secret.secret} thing={t('webhooks.secret')} />
          </div>
        </div>
      )}
      {endpoint.previous_secret_expires_at && (
        <p className="muted">
          {t('webhooks.overlapUntil', {
            time: formatDateTime(language, endpoint.previous_secret_expires_at),
          })}
        </p>
      )}
      <div className="row">
        <Button variant="secondary" busy={toggle.isPending} onClick={() => toggle.mutate()}>
          {t(endpoint.enabled ? 'webhooks.disable' : 'webhooks.enable')}
        </Button>
        {!secret && (
          <Button variant="quiet" busy={reveal.isPending} onClick={() => reveal.mutate()}>
            {t('webhooks.showSecret')}
          </Button>
        )}
        <Button variant="quiet" onClick={() => setConfirm('rotate')}>
          {t('webhooks.rotate')}
        </Button>
        <Button variant="quiet" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t('webhooks.deliveries')}
        </Button>
        <Button variant="danger" onClick={() => setConfirm('delete')}>
          {t('webhooks.delete')}
        </Button>
      </div>
      {open && <Deliveries endpointId={endpoint.id} />}
      <ConfirmDialog
        open={confirm === 'delete'}
        title={t('webhooks.delete')}
        message={t('webhooks.deleteConfirm', { url: endpoint.url })}
        confirmLabel={t('webhooks.delete')}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirm(undefined)}
      >
        {remove.isError && <ErrorSummary error={remove.error} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'rotate'}
        title={t('webhooks.rotate')}
        message={t('webhooks.rotateConfirm')}
        confirmLabel={t('webhooks.rotate')}
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onCancel={() => setConfirm(undefined)}
      >
        {rotate.isError && <ErrorSummary error={rotate.error} />}
      </ConfirmDialog>
    </li>
  )
}

function Deliveries(props: { endpointId: string }) {
  const { t, language } = useI18n()
  const queryClient = useQueryClient()
  const key = webhookKeys.deliveries(props.endpointId)
  const log = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.v1.get<WebhookDeliveryList>(
        `/developer/webhooks/${props.endpointId}/deliveries?limit=20`,
        { signal },
      ),
    refetchInterval: 5_000,
  })
  const again = useMutation({
    mutationFn: (id: string) =>
      api.v1.post(`/developer/webhooks/${props.endpointId}/deliveries/${id}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  })
  if (log.isPending) return <Pending paused={log.isPaused} />
  if (log.isError) return <ErrorSummary error={log.error} />
  if (log.data.data.length === 0) return <p className="muted">{t('webhooks.noDeliveries')}</p>
  return (
    <ul className="webhook-deliveries">
      {log.data.data.map((delivery) => (
        <li key={delivery.id} className="webhook-delivery">
          <span className="webhook-delivery-text">
            <code>{delivery.kind}</code>
            <span className="muted">
              {[
                t(`webhooks.status.${delivery.status}`),
                t('webhooks.attempts', { count: delivery.attempts }),
                delivery.response_status ? `HTTP ${delivery.response_status}` : delivery.last_error,
                formatDateTime(language, delivery.last_attempt_at ?? delivery.created_at),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </span>
          <Button
            variant="secondary"
            busy={again.isPending && again.variables === delivery.id}
            onClick={() => again.mutate(delivery.id)}
          >
            {t('webhooks.sendAgain')}
          </Button>
        </li>
      ))}
    </ul>
  )
}
