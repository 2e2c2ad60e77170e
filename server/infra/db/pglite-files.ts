import type { PGlite } from '@electric-sql/pglite'
import { NodeFS } from '@electric-sql/pglite/nodefs'

type Operation = (this: unknown, first: never, ...rest: never[]) => unknown

/** What of PGlite's Emscripten module this touches: its Node file system's operations. */
interface NodeFileSystem {
  stream_ops: Record<string, Operation>
  node_ops: Record<string, Operation>
}

interface Stream {
  node: { mode: number }
}

interface Module {
  NODEFS: NodeFileSystem
}

const SEEK_END = 2
/** S_IFMT and S_IFREG of a node's mode: a regular file. */
const isFile = (mode: number) => (mode & 0o170000) === 0o100000

/** Operations that leave a file's size as it was; every other one forgets it. */
const KEEPS_SIZE = {
  stream: new Set(['llseek', 'read', 'getattr', 'open', 'close', 'dup', 'mmap']),
  node: new Set(['getattr', 'lookup', 'readdir', 'readlink', 'statfs']),
}

/**
 * PGlite's data directory on disk (its own NodeFS), with a file's size kept
 * between the writes that change it. PostgreSQL asks a relation's size by
 * seeking to its end — every sequential scan does, and a foreign key's check
 * on a parent of one page (a currency, the tenant, a ledger account) is one —
 * which costs a native backend a fraction of a microsecond. Emscripten's Node
 * file system answers it with an fstat through Node, about ten microseconds:
 * some fifty times an exchange, 7 % of the embedded server's CPU an order.
 *
 * The size of a file is read once and kept until a write, a truncation or a
 * change of attributes reaches it through this file system, which forgets it;
 * the next seek reads it again. This process alone writes the directory (the
 * data directory's lock, data-dir-lock.ts), so no other writer can change a
 * size behind it.
 */
export class DataDirectory extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts)
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [
          ...(emscriptenOpts.preRun ?? []),
          (mod: object) => rememberSizes((mod as Module).NODEFS),
        ],
      },
    }
  }
}

/**
 * Every node's known size; a node is one file for as long as it exists (an
 * unlinked file's node is destroyed, a new file at its path is a new node).
 */
function rememberSizes(files: NodeFileSystem): void {
  const sizes = new WeakMap<object, number>()
  // Whatever may change a file (a write, a truncation, an operation added in a
  // later Emscripten) forgets its size before it runs.
  // A stream operation's first argument is the stream, a node operation's the node.
  const tables = [
    [files.stream_ops, KEEPS_SIZE.stream, (stream: unknown) => (stream as Stream).node],
    [files.node_ops, KEEPS_SIZE.node, (node: unknown) => node],
  ] as const
  for (const [ops, keeps, nodeOf] of tables) {
    for (const [name, operation] of Object.entries(ops)) {
      if (keeps.has(name) || typeof operation !== 'function') continue
      ops[name] = function (this: unknown, first: never, ...rest: never[]) {
        const node = nodeOf(first)
        if (typeof node === 'object' && node !== null) sizes.delete(node)
        return operation.call(this, first, ...rest)
      }
    }
  }
  const llseek = files.stream_ops.llseek as (
    this: unknown,
    stream: Stream,
    offset: number,
    whence: number,
  ) => number
  files.stream_ops.llseek = function (
    this: unknown,
    stream: Stream,
    offset: number,
    whence: number,
  ) {
    if (whence !== SEEK_END || !isFile(stream.node.mode))
      return llseek.call(this, stream, offset, whence)
    let size = sizes.get(stream.node)
    if (size === undefined) {
      // Read as Emscripten reads it (an fstat); its errors are its own to raise.
      size = llseek.call(this, stream, 0, SEEK_END)
      sizes.set(stream.node, size)
    }
    const position = size + offset
    return position < 0 ? llseek.call(this, stream, offset, whence) : position
  } as Operation
}
