import { useEffect, useState } from 'react'

type Encoder = typeof import('qrcode')

/*
 * `qrcode` is CommonJS. Depending on the bundler's interop its functions sit
 * on the namespace or on `default`; and a bare `toString` could silently be
 * Object.prototype's, so take the object that really has the encoder.
 */
async function loadEncoder(): Promise<Encoder> {
  const module = (await import('qrcode')) as Encoder & { default?: Encoder }
  return typeof module.create === 'function' ? module : module.default!
}

/**
 * A QR code of `text`, drawn as SVG. The encoder (`qrcode`) loads on first
 * use, in its own chunk: most screens never draw one, and the first visit's
 * JavaScript stays within budget.
 */
export function QrCode(props: { text: string; label: string; loadingLabel: string }) {
  const [svg, setSvg] = useState<{ text: string; src: string }>()

  useEffect(() => {
    let current = true
    void loadEncoder()
      .then((qrcode) =>
        qrcode.toString(props.text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      )
      .then((markup) => {
        if (current) {
          setSvg({ text: props.text, src: `data:image/svg+xml,${encodeURIComponent(markup)}` })
        }
      })
      .catch((error: unknown) => console.error('[qr] failed', error))
    return () => {
      current = false
    }
  }, [props.text])

  if (svg?.text !== props.text) {
    return (
      <div className="qr qr-loading" role="img" aria-label={props.loadingLabel}>
        <span className="spinner" aria-hidden="true" />
      </div>
    )
  }
  return <img className="qr" src={svg.src} alt={props.label} width={192} height={192} />
}
