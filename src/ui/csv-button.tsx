import { useEffect, useRef, useState } from 'react'
import { formatBytes } from '../i18n/format.ts'
import { useI18n } from '../i18n/i18n.tsx'
import { downloadCsv } from '../net/download.ts'
import { Button } from './components.tsx'
import { useNeedsServer } from './online.tsx'

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
export function CsvButton(props: { url: string; fileName: string }) {
  const { t, language } = useI18n()
  const server = useNeedsServer()
  const [state, setState] = useState<State>({ step: 'idle' })
  const controller = useRef<AbortController | undefined>(undefined)
  const link = useRef<HTMLAnchorElement>(null)

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
      const blob = await downloadCsv(props.url, {
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
        <a ref={link} href={state.url} download={props.fileName} data-testid="csv-link">
          {t('csv.again')}
        </a>
      )}
    </div>
  )
}
