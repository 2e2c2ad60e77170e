import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useId, useState } from 'react'
import { Link } from 'wouter'
import type {
  Counterparty,
  Destination,
  DestinationType,
} from '../../../contract/counterparties.ts'
import { errorMessage } from '../../i18n/error-message.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { ApiError } from '../../net/api.ts'
import { href } from '../../paths.ts'
import { chainsQuery } from '../../queries/wallets.ts'
import { Alert, Button, Notice } from '../../ui/components.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { CopyButton } from '../../ui/copy-button.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { groupIban } from './bank-checks.ts'
import { DestinationEditor } from './destination-editor.tsx'
import { type DestinationField, RAIL_FIELDS } from './destination-form.ts'
import { accountTypeLabel, countryName, destinationFieldName, railLabel } from './labels.ts'
import { useDeleteDestination } from './mutations.ts'
import { destinationsQuery } from './queries.ts'

/**
 * Rails an order can pay today: SEPA (WITHDRAWAL_FIAT_SEPA, in euros) and
 * crypto (WITHDRAWAL_CRYPTO). SWIFT, ACH and domestic wires are kept for
 * later; "Send" on them would open a form that cannot pay them.
 */
const PAYABLE = new Set<DestinationType>(['SEPA', 'CRYPTO_EXTERNAL', 'CRYPTO_INTERNAL'])

type Editing = { kind: 'add' } | { kind: 'edit'; id: string } | undefined
type Outcome = 'added' | 'saved' | 'deleted' | undefined

const ADD_ID = 'cp-add-destination'
const editId = (id: string) => `cp-edit-${id}`
const deleteId = (id: string) => `cp-delete-${id}`

/**
 * A counterparty's destinations: each shown for its rail, with Send, Edit and
 * Delete (after a confirmation). Adding and editing open the editor in place;
 * when it closes, focus goes back to the button that opened it.
 */
export function Destinations(props: { walletUuid: string; counterparty: Counterparty }) {
  const { t } = useI18n()
  const titleId = useId()
  const id = props.counterparty.counterparty_account_id
  const destinations = useQuery(destinationsQuery(props.walletUuid, id))
  const server = useNeedsServer()
  const remove = useDeleteDestination(props.walletUuid, id)
  const [editing, setEditing] = useState<Editing>()
  const [deleting, setDeleting] = useState<Destination>()
  const [outcome, setOutcome] = useState<Outcome>()
  const [focusOn, setFocusOn] = useState<string>()

  // After the editor or the dialog closes, the element to return to exists only once rendered.
  useEffect(() => {
    if (!focusOn) return
    document.getElementById(focusOn)?.focus()
    setFocusOn(undefined)
  }, [focusOn])

  const open = (next: Editing) => {
    setOutcome(undefined)
    setEditing(next)
  }
  const close = (result?: Outcome) => {
    setFocusOn(editing?.kind === 'edit' ? editId(editing.id) : ADD_ID)
    setEditing(undefined)
    setOutcome(result)
  }

  const confirmDelete = () => {
    if (!deleting) return
    remove.mutate(deleting.counterparty_destination_id, {
      onSuccess: () => {
        setDeleting(undefined)
        setOutcome('deleted')
        setFocusOn(titleId)
      },
    })
  }
  const cancelDelete = () => {
    const target = deleting && deleteId(deleting.counterparty_destination_id)
    setDeleting(undefined)
    remove.reset()
    setFocusOn(target)
  }

  const title = (destination: Destination) => destination.label ?? railLabel(t, destination.type)
  // Three controls per destination: each names its destination for a screen reader's list of
  // controls, its visible word first (the name a voice command uses).
  const named = (action: string, destination: Destination) => ({
    'aria-label': t('cp.dest.actionOn', { action, destination: title(destination) }),
    children: action,
  })

  let list: ReactNode
  if (destinations.isPending) list = <Pending paused={destinations.isPaused} />
  else if (destinations.isError) {
    list = (
      <div className="stack">
        <ErrorSummary error={destinations.error} />
        <Button variant="secondary" onClick={() => destinations.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  } else if (destinations.data.data.length === 0 && editing?.kind !== 'add') {
    list = <p className="muted">{t('cp.dest.empty', { name: props.counterparty.name })}</p>
  } else {
    list = (
      <ul className="cp-destinations">
        {destinations.data.data.map((destination) => (
          <li key={destination.counterparty_destination_id} className="cp-destination">
            {editing?.kind === 'edit' && editing.id === destination.counterparty_destination_id ? (
              <DestinationEditor
                walletUuid={props.walletUuid}
                counterpartyId={id}
                destination={destination}
                onSaved={() => close('saved')}
                onCancel={() => close()}
              />
            ) : (
              <DestinationView
                destination={destination}
                actions={
                  <div className="row cp-actions">
                    {!PAYABLE.has(destination.type) && (
                      <p className="muted cp-not-payable">{t('cp.dest.notPayable')}</p>
                    )}
                    {PAYABLE.has(destination.type) && (
                      <Link
                        href={href.send({
                          wallet: props.walletUuid,
                          counterparty: id,
                          destination: destination.counterparty_destination_id,
                        })}
                        className="button button-primary"
                        {...named(t('cp.dest.send'), destination)}
                      />
                    )}
                    <Button
                      variant="secondary"
                      id={editId(destination.counterparty_destination_id)}
                      onClick={() =>
                        open({ kind: 'edit', id: destination.counterparty_destination_id })
                      }
                      {...server.disabledProps}
                      {...named(t('cp.edit'), destination)}
                    />
                    <Button
                      variant="quiet"
                      id={deleteId(destination.counterparty_destination_id)}
                      onClick={() => {
                        setOutcome(undefined)
                        remove.reset()
                        setDeleting(destination)
                      }}
                      {...server.disabledProps}
                      {...named(t('cp.dest.delete'), destination)}
                    />
                  </div>
                }
              />
            )}
          </li>
        ))}
      </ul>
    )
  }

  return (
    <section className="card stack" aria-labelledby={titleId}>
      <div className="row cp-header">
        <h2 id={titleId} tabIndex={-1}>
          {t('cp.dest.title')}
        </h2>
        {editing?.kind !== 'add' && (
          <Button
            variant="secondary"
            id={ADD_ID}
            onClick={() => open({ kind: 'add' })}
            {...server.disabledProps}
          >
            {t('cp.dest.add')}
          </Button>
        )}
      </div>
      {server.reason}
      {outcome && <Notice>{t(`cp.dest.${outcome}`)}</Notice>}
      {list}
      {editing?.kind === 'add' && (
        <DestinationEditor
          walletUuid={props.walletUuid}
          counterpartyId={id}
          onSaved={() => close('added')}
          onCancel={() => close()}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('cp.dest.deleteTitle')}
        message={
          deleting &&
          t('cp.dest.deleteBody', {
            destination: `${title(deleting)} (${deleting.display})`,
            name: props.counterparty.name,
          })
        }
        confirmLabel={t('cp.dest.deleteConfirm')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      >
        {remove.isError && <Alert>{deleteErrorMessage(remove.error)}</Alert>}
      </ConfirmDialog>
    </section>
  )

  function deleteErrorMessage(error: unknown): string {
    // A pending order still pays to it: nothing is wrong with the request, it is too early.
    if (error instanceof ApiError && error.code === 'DESTINATION_IN_USE') {
      return t('cp.dest.inUse')
    }
    return errorMessage(error, t)
  }
}

/** One destination, every field its rail has: numbers in full (they are the person's own records). */
function DestinationView(props: { destination: Destination; actions: ReactNode }) {
  const { t, language } = useI18n()
  const { destination } = props
  const chains = useQuery({ ...chainsQuery(), enabled: destination.chain !== null })
  const titleId = `${destination.counterparty_destination_id}-title`

  const value = (field: DestinationField): ReactNode => {
    const raw = destination[field]
    if (raw === null) return null
    switch (field) {
      case 'iban':
        return (
          <span className="cp-copyable">
            <code className="cp-mono grouped">{groupIban(raw)}</code>
            <CopyButton text={raw} thing={destinationFieldName(t, 'iban')} />
          </span>
        )
      case 'address':
        return (
          <span className="cp-copyable">
            <code className="cp-mono address-text">{raw}</code>
            <CopyButton text={raw} thing={destinationFieldName(t, 'address')} />
          </span>
        )
      case 'account_type':
        return destination.account_type && accountTypeLabel(t, destination.account_type)
      case 'bank_country':
        return countryName(language, raw)
      case 'chain':
        return chains.data?.data.find((chain) => chain.id === raw)?.name ?? raw
      case 'bic':
      case 'account_number':
      case 'routing_number':
      case 'wallet_uuid':
        return <code className="cp-mono">{raw}</code>
      default:
        return raw
    }
  }

  const rows = RAIL_FIELDS[destination.type].flatMap((field) => {
    const shown = value(field)
    return shown === null ? [] : [[field, shown] as const]
  })

  return (
    <article className="stack cp-destination-view" aria-labelledby={titleId}>
      <div>
        <h3 id={titleId}>{destination.label ?? railLabel(t, destination.type)}</h3>
        {destination.label && <p className="muted cp-sub">{railLabel(t, destination.type)}</p>}
      </div>
      <dl className="fields">
        {rows.map(([field, shown]) => (
          <div key={field} className="field-row">
            <dt>{destinationFieldName(t, field)}</dt>
            <dd>{shown}</dd>
          </div>
        ))}
      </dl>
      {props.actions}
    </article>
  )
}
