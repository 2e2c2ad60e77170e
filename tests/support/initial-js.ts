import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * The JavaScript a first visit downloads before it can show anything: what
 * the built index.html loads (`<script type="module" src>`), what it
 * preloads (`<link rel="modulepreload" href>`), and whatever those import
 * statically. Lazy chunks (dynamic `import()`) are not counted.
 *
 * Used by the e2e size budget and by bench/; node built-ins only.
 */
export interface InitialJsFile {
  /** Path inside dist/, e.g. "assets/index-BJk1Pwk5.js". */
  file: string
  bytes: number
  /** Size after gzip at level 9, what a compressing server would send. */
  gzip: number
}

export interface InitialJs {
  files: InitialJsFile[]
  totalBytes: number
  totalGzip: number
}

export function initialJs(distDir: string): InitialJs {
  const root = resolve(distDir)
  const html = readFileSync(join(root, 'index.html'), 'utf8')

  const queue: string[] = []
  for (const attributes of tags(html, 'script')) {
    if (attributes.type === 'module' && attributes.src) queue.push(fromRoot(root, attributes.src))
  }
  for (const attributes of tags(html, 'link')) {
    const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/)
    if (rels.includes('modulepreload') && attributes.href) {
      queue.push(fromRoot(root, attributes.href))
    }
  }

  const seen = new Set<string>()
  const files: InitialJsFile[] = []
  while (queue.length > 0) {
    const path = queue.shift()!
    if (seen.has(path)) continue
    seen.add(path)
    if (!existsSync(path)) {
      throw new Error(`index.html loads ${relative(root, path)}, which is not in ${root}`)
    }
    const source = readFileSync(path)
    files.push({
      file: relative(root, path),
      bytes: source.length,
      gzip: gzipSync(source, { level: 9 }).length,
    })
    for (const specifier of staticImports(source.toString('utf8'))) {
      const target = specifier.startsWith('/')
        ? fromRoot(root, specifier)
        : resolve(dirname(path), specifier)
      if (existsSync(target)) queue.push(target)
    }
  }

  return {
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    totalGzip: files.reduce((sum, file) => sum + file.gzip, 0),
  }
}

/** "84.1 KB": kibibytes with one decimal, as budgets are written. */
export const formatKb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The attributes of every `<name ...>` start tag in `html`. */
function tags(html: string, name: string): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = []
  for (const tag of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {}
    for (const attribute of (tag[1] ?? '').matchAll(
      /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
    )) {
      attributes[attribute[1]!.toLowerCase()] = attribute[2] ?? attribute[3] ?? attribute[4] ?? ''
    }
    found.push(attributes)
  }
  return found
}

/** A URL path from index.html ("/assets/x.js", "./assets/x.js") as a file in dist/. */
function fromRoot(root: string, url: string): string {
  const path = url.split(/[?#]/)[0]!.replace(/^\.?\//, '')
  return join(root, path)
}

/**
 * Relative specifiers of static imports and re-exports in bundled ES module
 * code (`import{a}from"./x.js"`, `import"./y.js"`, `export*from"./z.js"`);
 * dynamic `import("./lazy.js")` is left out on purpose.
 */
function staticImports(code: string): string[] {
  const specifiers: string[] = []
  const pattern =
    /(?:^|[;\s}])(?:import\s*(?:[\w$*{}\s,]+?\s*from\s*)?|export\s*(?:\*|\{[^}]*\})\s*from\s*)["'](\.{0,2}\/[^"']+)["']/g
  for (const match of code.matchAll(pattern)) specifiers.push(match[1]!)
  return specifiers
}
