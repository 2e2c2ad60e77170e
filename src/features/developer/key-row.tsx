import { type FormEvent, useId, useState } from 'react'
import type { ApiKey, ApiKeyWithSecret } from '../../../contract/developer.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { SelectField } from '../../ui/fields.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { KeyFields } from './key-fields.tsx'
import { changesOf, checkKeyForm, formOf, refusedKeyFields } from './key-form.ts'
import { useRotateKey, useUpdateKey } from './mutations.ts'

/** How long the current secret may keep working after a rotation: the choices offered. */
export const OVERLAP_CHOICES = [0, 3_600, 86_400, 604_800] as const
type Overlap = (typeof OVERLAP_CHOICES)[number]

/** One key: what it is, when it was last used, and what can be done with it. */
export function KeyRow(props: {
  apiKey: ApiKey
  /** Disables Rotate (offline, or a secret still on screen), with the reason's id. */
  rotateProps: { disabled?: boolean; 'aria-describedby'?: string }
  onRotated: (key: ApiKeyWithSecret) => void
}) {
  const { t, language } = useI18n()
  const nameId = useId()
  const server = useNeedsServer()
  const { apiKey } = props
  const [editing, setEditing] = useState(false)
  const [rotating, setRotating] = useState(false)
  const [disabling, setDisabling] = useState(false)
  const [overlap, setOverlap] = useState<Overlap>(0)
  const rotate = useRotateKey()
  const toggle = useUpdateKey()
  const name = apiKey.name

  const setEnabled = (enabled: boolean) =>
    toggle.mutate({ id: apiKey.id, enabled }, { onSuccess: () => setDisabling(false) })

  const confirmRotation = () =>
    rotate.mutate(
      { id: apiKey.id, overlap_seconds: overlap },
      {
        onSuccess: (key) => {
          rotate.reset()
          setRotating(false)
          setOverlap(0)
          props.onRotated(key)
        },
      },
    )

  return (
    <li className="dev-key stack" aria-labelledby={nameId}>
      <div className="row dev-key-header">
        {/* Focusable from script: "Show more keys" moves focus to the first new row. */}
        <h3 id={nameId} tabIndex={-1}>
          {name}
        </h3>
        <span className="dev-badge">{t(`dev.role.${apiKey.role}`)}</span>
        <span className={apiKey.enabled ? 'dev-badge' : 'dev-badge dev-badge-off'}>
          {apiKey.enabled ? t('dev.key.enabled') : t('dev.key.disabled')}
        </span>
      </div>
      <dl className="details">
        <dt>{t('dev.key.prefix')}</dt>
        <dd>
          <code>{apiKey.prefix}_…</code>
        </dd>
        <dt>{t('dev.key.lastUsed')}</dt>
        <dd>
          {apiKey.last_used_at
            ? formatDateTime(language, apiKey.last_used_at)
            : t('dev.key.neverUsed')}
        </dd>
        <dt>{t('dev.key.allowedIps')}</dt>
        <dd>
          {apiKey.allowed_ips.length > 0 ? apiKey.allowed_ips.join(', ') : t('dev.key.anyIp')}
        </dd>
      </dl>
      {apiKey.previous_secret_expires_at && (
        <p className="muted">
          {t('dev.key.oldSecretUntil', {
            time: formatDateTime(language, apiKey.previous_secret_expires_at),
          })}
        </p>
      )}
      {toggle.isError && <ErrorSummary error={toggle.error} />}
      {server.reason}
      <div className="row">
        <Button
          variant="secondary"
          aria-label={t('dev.key.editNamed', { name })}
          aria-expanded={editing}
          onClick={() => setEditing((open) => !open)}
        >
          {t('dev.key.edit')}
        </Button>
        <Button
          variant="secondary"
          aria-label={t('dev.key.rotateNamed', { name })}
          onClick={() => setRotating(true)}
          {...props.rotateProps}
        >
          {t('dev.key.rotate')}
        </Button>
        <Button
          variant="secondary"
          aria-label={t(apiKey.enabled ? 'dev.key.disableNamed' : 'dev.key.enableNamed', { name })}
          busy={toggle.isPending && !disabling}
          // Disabling stops every integration using the key: asked first. Enabling is not.
          onClick={() => (apiKey.enabled ? setDisabling(true) : setEnabled(true))}
          {...server.disabledProps}
        >
          {apiKey.enabled ? t('dev.key.disable') : t('dev.key.enable')}
        </Button>
      </div>
      {editing && <EditKeyForm apiKey={apiKey} onDone={() => setEditing(false)} />}
      <ConfirmDialog
        open={disabling}
        title={t('dev.disable.title', { name })}
        message={t('dev.disable.body')}
        confirmLabel={t('dev.disable.confirm')}
        busy={toggle.isPending}
        onConfirm={() => setEnabled(false)}
        onCancel={() => {
          toggle.reset()
          setDisabling(false)
        }}
      >
        {toggle.isError && <ErrorSummary error={toggle.error} />}
      </ConfirmDialog>
      <ConfirmDialog
        open={rotating}
        title={t('dev.rotate.title', { name })}
        confirmLabel={t('dev.rotate.confirm')}
        busy={rotate.isPending}
        onConfirm={confirmRotation}
        onCancel={() => {
          rotate.reset()
          setRotating(false)
        }}
      >
        <p>{t('dev.rotate.body')}</p>
        <SelectField
          label={t('dev.rotate.overlap')}
          value={overlap}
          onChange={(event) => setOverlap(Number(event.target.value) as Overlap)}
        >
          {OVERLAP_CHOICES.map((seconds) => (
            <option key={seconds} value={seconds}>
              {t(`dev.rotate.overlap.${seconds}`)}
            </option>
          ))}
        </SelectField>
        {rotate.isError && <ErrorSummary error={rotate.error} />}
      </ConfirmDialog>
    </li>
  )
}

/** Rename, re-role or change the allow-list; only what changed is sent. */
function EditKeyForm(props: { apiKey: ApiKey; onDone: () => void }) {
  const { t } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const update = useUpdateKey()
  const [values, setValues] = useState(() => formOf(props.apiKey))
  const [submitted, setSubmitted] = useState(false)
  const problems = {
    ...refusedKeyFields(update.error),
    ...(submitted ? checkKeyForm(values) : {}),
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(checkKeyForm(values)).length > 0) return
    const changes = changesOf(props.apiKey, values)
    if (Object.keys(changes).length === 0) return props.onDone()
    update.mutate({ id: props.apiKey.id, ...changes }, { onSuccess: props.onDone })
  }

  return (
    <form className="stack dev-edit" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h4 id={titleId}>{t('dev.form.editTitle', { name: props.apiKey.name })}</h4>
      {update.isError && <ErrorSummary error={update.error} />}
      <KeyFields
        values={values}
        problems={problems}
        onChange={(next) => {
          if (update.isError) update.reset()
          setValues(next)
        }}
      />
      <div className="row">
        <Button type="submit" busy={update.isPending} {...server.disabledProps}>
          {update.isPending ? t('dev.form.saving') : t('dev.form.save')}
        </Button>
        <Button variant="secondary" onClick={props.onDone} disabled={update.isPending}>
          {t('action.cancel')}
        </Button>
      </div>
    </form>
  )
}
