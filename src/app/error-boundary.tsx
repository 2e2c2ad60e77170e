import { Component, type ReactNode } from 'react'

interface Props {
  fallback: (retry: () => void) => ReactNode
  children: ReactNode
}

/** A screen that throws shows a way out instead of a blank page. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: unknown) {
    console.error('[app] screen failed', error)
  }

  override render() {
    if (this.state.failed) return this.props.fallback(() => this.setState({ failed: false }))
    return this.props.children
  }
}
