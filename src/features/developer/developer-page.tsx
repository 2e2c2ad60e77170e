import { useInfiniteQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { ApiKeyWithSecret } from '../../../contract/developer.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { ErrorSummary } from '../../ui/error-summary.tsx'
import { Pending, useNeedsServer } from '../../ui/online.tsx'
import { CreateKeyForm } from './create-key-form.tsx'
import { KeyRow } from './key-row.tsx'
import { API_DOCS_URL, apiKeysQuery } from './queries.ts'
import { SecretReveal } from './secret-reveal.tsx'
import { VendorsTable } from './vendors-table.tsx'
import './developer.css'

/**
 * /developer — API keys (create, rotate, edit, disable; a secret shown once),
 * the providers behind the deployment, and the API reference.
 */
export default function DeveloperPage(props: {
  /** The webhook endpoints, from the events feature (composed in src/app/routes.tsx). */
  webhooks?: ReactNode
}) {
  const { t } = useI18n()
  const titleId = useId()
  const keysId = useId()
  const saveFirstId = useId()
  const server = useNeedsServer()
  const keys = useInfiniteQuery(apiKeysQuery())
  const [creating, setCreating] = useState(false)
  const [revealed, setRevealed] = useState<{ key: ApiKeyWithSecret; rotated: boolean }>()
  const listRef = useRef<HTMLUListElement>(null)
  // Where the rows "Show more keys" asked for begin: focus goes to the first of
  // them once they are in, as the button may go (last page) and leave focus nowhere.
  const firstNew = useRef<number>(undefined)
  const shownCount = keys.data?.keys.length ?? 0
  useEffect(() => {
    const from = firstNew.current
    if (from === undefined || shownCount <= from) return
    firstNew.current = undefined
    listRef.current?.children[from]?.querySelector<HTMLElement>('h3')?.focus()
  }, [shownCount])
  // One secret on screen at a time: another would replace it before the person saved it.
  const secretShown = revealed !== undefined
  const blocked = secretShown
    ? { disabled: true, 'aria-describedby': saveFirstId }
    : server.disabledProps

  let list: ReactNode
  if (keys.isPending) {
    list = <Pending paused={keys.isPaused} />
  } else if (keys.isError && !keys.data) {
    list = (
      <div className="stack">
        <ErrorSummary error={keys.error} />
        <Button variant="secondary" onClick={() => keys.refetch()}>
          {t('error.retry')}
        </Button>
      </div>
    )
  } else if (keys.data.keys.length === 0) {
    list = <p className="muted">{t('dev.keys.empty')}</p>
  } else {
    const { keys: shown, total } = keys.data
    list = (
      <>
        <ul className="dev-keys" ref={listRef}>
          {shown.map((key) => (
            <KeyRow
              key={key.id}
              apiKey={key}
              rotateProps={blocked}
              onRotated={(rotated) => setRevealed({ key: rotated, rotated: true })}
            />
          ))}
        </ul>
        {/* How far the list goes, while there is more than shown. */}
        <p className="muted" aria-live="polite">
          {keys.hasNextPage ? t('dev.keys.count', { shown: shown.length, total }) : null}
        </p>
        {keys.isFetchNextPageError && <ErrorSummary error={keys.error} />}
        {keys.hasNextPage && (
          <div>
            <Button
              variant="secondary"
              busy={keys.isFetchingNextPage}
              onClick={() => {
                firstNew.current = shown.length
                void keys.fetchNextPage()
              }}
              {...server.disabledProps}
            >
              {keys.isFetchingNextPage
                ? t('dev.keys.loadingMore')
                : keys.isFetchNextPageError
                  ? t('error.retry')
                  : t('dev.keys.more')}
            </Button>
          </div>
        )}
      </>
    )
  }

  return (
    <div className="stack">
      <section className="card stack" aria-labelledby={titleId}>
        <div className="row dev-header">
          <h1 id={titleId}>{t('dev.title')}</h1>
          <a href={API_DOCS_URL} target="_blank" rel="noopener">
            {t('dev.docs')}
          </a>
        </div>
        <p className="muted">{t('dev.lead')}</p>
      </section>
      {revealed && (
        <SecretReveal
          apiKey={revealed.key}
          rotated={revealed.rotated}
          onDone={() => setRevealed(undefined)}
        />
      )}
      {creating ? (
        <CreateKeyForm
          submitProps={blocked}
          onCreated={(key) => {
            setCreating(false)
            setRevealed({ key, rotated: false })
          }}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      <section className="card stack" aria-labelledby={keysId}>
        <div className="row dev-header">
          <h2 id={keysId}>{t('dev.keys.title')}</h2>
          {!creating && (
            <Button onClick={() => setCreating(true)} {...blocked}>
              {t('dev.keys.create')}
            </Button>
          )}
        </div>
        {server.reason}
        {secretShown && (
          <p id={saveFirstId} className="muted">
            {t('dev.keys.saveFirst')}
          </p>
        )}
        {list}
      </section>
      {props.webhooks}
      <VendorsTable />
    </div>
  )
}
