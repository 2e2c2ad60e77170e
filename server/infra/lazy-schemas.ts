import SerializerSelector from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serialize = (data: unknown) => string

/** fast-json-stringify, as Fastify builds it by default, each answer's code generated at first use. */
const lazySerializers =
  (pool: SerializerFactory): SerializerFactory =>
  (externalSchemas, options) => {
    let compiler: ReturnType<SerializerFactory> | undefined
    return ((route) => {
      let serialize: Serialize | undefined
      return (data: unknown) => {
        compiler ??= pool(externalSchemas, options)
        serialize ??= compiler(route) as Serialize
        return serialize(data)
      }
    }) as ReturnType<SerializerFactory>
  }

/**
 * Fastify's own answer compiler (fast-json-stringify — the same factory, with
 * the same options), each route's code generated at its first call instead of
 * at start-up: compiling every route's schemas up front took about a second of
 * every start, for routes a given process may never serve. Requests are
 * checked by the app's own validator compiler (infra/validation.ts), lazy the
 * same way. A schema that cannot compile still fails — on its route's first
 * call, which every route's tests make.
 */
export const lazySchemaCompilers = () => ({
  // One pool per server, as Fastify keeps it.
  buildSerializer: lazySerializers(SerializerSelector()),
})
