import { useEffect, useRef, useState } from 'react'
import { formatBytes } from '../../i18n/format.ts'
import { useI18n } from '../../i18n/i18n.tsx'
import { Button } from '../../ui/components.tsx'
import { useNeedsServer } from '../../ui/online.tsx'
import { csvUrl, downloadCsv } from './csv-export.ts'

type State =
  | { step: 'idle' }
  | { step: 'running'; bytes: number }
  | { step: 'done'; bytes: number; url: string }
  | { step: 'canceled' }
  | { step: 'failed' }

/**
 * "Download CSV" with the bytes received so far, cancellable. The file is
 * saved through a blob link once complete; the link stays for a second try.
 */
export function CsvButton(props: {
  walletUuid: string
  query: Record<string, string | undefined>
}) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const [state, setState] = useState<State>({ step: 'idle' })
  const controller = useRef<AbortController | undefined>(undefined)
  const link = useRef<HTMLAnchorElement>(null)
  const fileName = `transactions-${props.walletUuid}.csv`

  // The blob lives until a new download replaces it or the screen goes.
  const objectUrl = state.step === 'done' ? state.url : undefined
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    },
    [objectUrl],
  )
  useEffect(() => () => controller.current?.abort(), [])
  useEffect(() => {
    if (objectUrl) link.current?.click()
  }, [objectUrl])

  const start = async () => {
    controller.current?.abort()
    const abort = new AbortController()
    controller.current = abort
    setState({ step: 'running', bytes: 0 })
    try {
      const blob = await downloadCsv(csvUrl(props.walletUuid, props.query), {
        signal: abort.signal,
        onProgress: (bytes) => setState({ step: 'running', bytes }),
      })
      setState({ step: 'done', bytes: blob.size, url: URL.createObjectURL(blob) })
    } catch (error) {
      if (abort.signal.aborted) return setState({ step: 'canceled' })
      console.error('[csv] download failed', error)
      setState({ step: 'failed' })
    }
  }

  return (
    <div className="stack csv">
      {state.step === 'running' ? (
        <Button variant="secondary" onClick={() => controller.current?.abort()}>
          {t('csv.cancel')}
        </Button>
      ) : (
        <Button variant="secondary" onClick={start} {...server.disabledProps}>
          {t('csv.download')}
        </Button>
      )}
      {server.reason}
      <p role="status" className="csv-status">
        {state.step === 'running' &&
          t('csv.downloading', { size: formatBytes(language, state.bytes) })}
        {state.step === 'done' && t('csv.done', { size: formatBytes(language, state.bytes) })}
        {state.step === 'canceled' && t('csv.canceled')}
      </p>
      {state.step === 'failed' && (
        <p role="alert" className="alert alert-error">
          {t('csv.failed')}
        </p>
      )}
      {state.step === 'done' && (
        <a ref={link} href={state.url} download={fileName} data-testid="csv-link">
          {t('csv.again')}
        </a>
      )}
    </div>
  )
}
