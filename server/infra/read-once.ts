/**
 * A read of data that never changes while the server runs (the currency
 * catalogue, fixed by the migrations): done at first use, then answered from
 * memory — and done again after a failed read, so a dropped connection does
 * not leave every later call failing until a restart.
 */
export function readOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => {
    if (!value) {
      const loading = load()
      value = loading
      loading.catch(() => {
        if (value === loading) value = undefined
      })
    }
    return value
  }
}
