import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { Counterparty } from '../../../contract/counterparties.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { href } from '../../paths.ts'
import { Button, Notice } from '../../ui/components.tsx'
import { FieldList } from '../../ui/field-list.tsx'
import { LoadError } from '../../ui/load-error.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { BackLink } from '../../ui/page-header.tsx'
import { CounterpartyEditor } from './counterparty-editor.tsx'
import { displayPhone } from './counterparty-form.ts'
import { Destinations } from './destinations.tsx'
import { counterpartyTypeLabel, countryName, initials } from './labels.ts'
import { counterpartyQuery } from './queries.ts'
import './counterparties.css'

/** /wallets/:uuid/counterparties/:id — who they are (editable) and where they can be paid. */
export default function CounterpartyPage(props: { uuid: string; id: string }) {
  const { t } = useI18n()
  const counterparty = useQuery(counterpartyQuery(props.uuid, props.id))
  const back = { href: href.counterparties(props.uuid), label: t('cp.back') }

  if (counterparty.isPending) return <Pending paused={counterparty.isPaused} />
  if (counterparty.isError) {
    return (
      <LoadError
        error={counterparty.error}
        what="counterparty"
        back={back}
        onRetry={() => counterparty.refetch()}
      />
    )
  }
  return (
    <div className="stack">
      <BackLink back={back} />
      <Details walletUuid={props.uuid} counterparty={counterparty.data} />
      <Destinations walletUuid={props.uuid} counterparty={counterparty.data} />
    </div>
  )
}

function Details(props: { walletUuid: string; counterparty: Counterparty }) {
  const { t, language } = useI18n()
  const titleId = useId()
  const server = useNeedsServer()
  const { counterparty } = props
  const [editing, setEditing] = useState(false)
  const [saved, setSaved] = useState(false)
  const returning = useRef(false)

  // Back from the editor: focus returns to "Edit", which exists again only now.
  useEffect(() => {
    if (editing || !returning.current) return
    returning.current = false
    document.getElementById(`${titleId}-edit`)?.focus()
  }, [editing, titleId])

  const close = (wasSaved: boolean) => {
    returning.current = true
    setEditing(false)
    setSaved(wasSaved)
  }

  const address = counterparty.address
  const none = <span className="muted">{t('cp.none')}</span>
  const rows: [string, ReactNode][] = [
    [t('cp.field.type'), counterpartyTypeLabel(t, counterparty.type)],
    [t('cp.field.country'), countryName(language, counterparty.country)],
    [t('cp.field.emailShort'), counterparty.email ?? none],
    [
      t('cp.field.phoneShort'),
      counterparty.phone ? (
        <bdi key="phone" dir="ltr">
          {displayPhone(counterparty.phone)}
        </bdi>
      ) : (
        none
      ),
    ],
    [
      t('cp.field.addressShort'),
      address
        ? [address.line1, address.line2, `${address.postal_code} ${address.city}`, address.state]
            .filter(Boolean)
            .join(', ')
        : none,
    ],
  ]

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <div className="row cp-title">
        <span className="cp-avatar cp-avatar-large" aria-hidden="true">
          {initials(counterparty.name)}
        </span>
        <h1 id={titleId}>{counterparty.name}</h1>
      </div>
      {editing ? (
        <CounterpartyEditor
          walletUuid={props.walletUuid}
          counterparty={counterparty}
          labelledBy={titleId}
          onSaved={() => close(true)}
          onCancel={() => close(false)}
        />
      ) : (
        <>
          {saved && <Notice>{t('cp.saved')}</Notice>}
          <FieldList rows={rows} />
          <div>
            <Button
              id={`${titleId}-edit`}
              variant="secondary"
              onClick={() => {
                setSaved(false)
                setEditing(true)
              }}
              {...server.disabledProps}
            >
              {t('cp.editDetails')}
            </Button>
          </div>
          {server.reason}
        </>
      )}
    </section>
  )
}
