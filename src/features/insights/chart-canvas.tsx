import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  DoughnutController,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'
import { type ReactNode, useEffect, useRef } from 'react'

/*
 * The one door to Chart.js (issue 31): only the Insights route imports this
 * module, so the library ships in that route's chunk and never in the first
 * download (tests/e2e/initial-js-size.test.ts). Only the pieces the screen
 * draws are registered, so the rest of Chart.js is left out of the chunk.
 */
Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
)

/** The theme's colours, read from the design tokens, so charts follow light and dark. */
export function themeInk(): { text: string; muted: string; grid: string } {
  const style = getComputedStyle(document.documentElement)
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    text: token('--color-text', '#1a1d24'),
    muted: token('--color-text-muted', '#5b6170'),
    grid: token('--color-border', '#d7dae0'),
  }
}

/**
 * A chart's axes as the page reads (issue 34): right to left, time runs from
 * the right, the figures stand on the right and a tooltip reads right to left.
 */
export function readingAxes() {
  const rtl = document.documentElement.dir === 'rtl'
  return { x: { reverse: rtl }, y: { position: rtl ? ('right' as const) : ('left' as const) }, rtl }
}

/**
 * A chart on a canvas. The canvas is an image to a screen reader, named by
 * `label`; `children` is what it shows in words (a list or a table) for
 * whoever cannot see it, and stays on the page beside it.
 */
export function ChartCanvas(props: {
  config: ChartConfiguration<'doughnut'> | ChartConfiguration<'bar'> | ChartConfiguration<'line'>
  /** Changes when what is drawn changes: the chart is drawn anew only then. */
  signature: string
  label: string
  height: number
  testId?: string
  children?: ReactNode
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const config = useRef(props.config)
  config.current = props.config
  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature says when the (rebuilt each render) config changed
  useEffect(() => {
    const element = canvas.current
    // happy-dom has no 2D context: there is nothing to draw on.
    if (!element?.getContext('2d')) return
    const chart = new Chart(element, config.current as ChartConfiguration)
    return () => chart.destroy()
  }, [props.signature])
  return (
    <div className="chart" style={{ height: props.height }} data-testid={props.testId}>
      <canvas ref={canvas} role="img" aria-label={props.label} />
    </div>
  )
}
