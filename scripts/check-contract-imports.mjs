// Part of `npm run test:lint`: the app (src/) and the service worker (sw/) may
// take types from contract/ freely, but a value only from a contract file that
// reaches no TypeBox (directly or through the files it imports): otherwise the
// schemas' module, ~11 KB gzipped, ships in the chunk. Biome's noRestrictedImports
// cannot tell `import type` from a value import, hence this check.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const TYPEBOX = '@sinclair/typebox'

/**
 * The module specifiers a file imports or re-exports for their values
 * (`import type`, `import { type X }` and `export type` left out), each with
 * the names it takes.
 */
export function valueImports(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false)
  const found = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      if (clause?.isTypeOnly) continue
      const names = []
      if (clause?.name) names.push(clause.name.text)
      const bindings = clause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) names.push(`* as ${bindings.name.text}`)
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements)
          if (!element.isTypeOnly) names.push(element.name.text)
      }
      // `import './x.ts'` runs the module: a value import with no names.
      if (clause === undefined || names.length > 0) {
        found.push({ specifier: statement.moduleSpecifier.text, names })
      }
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue
      const clause = statement.exportClause
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.filter((element) => !element.isTypeOnly).map((e) => e.name.text)
          : ['*']
      if (names.length > 0) found.push({ specifier: statement.moduleSpecifier.text, names })
    }
  }
  return found
}

/**
 * Every value import from `importers` of a contract file that reaches TypeBox.
 * @param read the text of a file by absolute path
 * @param contractDir the absolute path of contract/
 */
export function typeBoxLeaks(importers, read, contractDir) {
  const reaches = new Map()
  const reachesTypeBox = (file) => {
    if (reaches.has(file)) return reaches.get(file)
    reaches.set(file, false)
    const answer = valueImports(file, read(file)).some(({ specifier }) =>
      specifier === TYPEBOX
        ? true
        : specifier.startsWith('.') && reachesTypeBox(resolve(dirname(file), specifier)),
    )
    reaches.set(file, answer)
    return answer
  }
  const leaks = []
  for (const importer of importers) {
    for (const { specifier, names } of valueImports(importer, read(importer))) {
      if (!specifier.startsWith('.')) continue
      const target = resolve(dirname(importer), specifier)
      if (!target.startsWith(`${contractDir}/`)) continue
      if (reachesTypeBox(target)) leaks.push({ importer, target, names })
    }
  }
  return leaks
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const importers = ['src', 'sw'].flatMap((dir) => sourceFiles(join(root, dir)))
  const leaks = typeBoxLeaks(
    importers,
    (file) => readFileSync(file, 'utf8'),
    join(root, 'contract'),
  )
  for (const { importer, target, names } of leaks) {
    console.error(
      `${relative(root, importer)}: imports ${names.join(', ')} from ${relative(root, target)}, ` +
        'which pulls in TypeBox. Import the type with `import type`, or take the value from a ' +
        'contract file that imports no TypeBox (see contract/README.md).',
    )
  }
  if (leaks.length > 0) process.exit(1)
  console.log(`contract imports: ${importers.length} files of src/ and sw/ take no TypeBox`)
}
