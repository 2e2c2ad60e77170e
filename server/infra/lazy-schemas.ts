import AjvCompiler from '@fastify/ajv-compiler'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'

type ValidatorFactory = ReturnType<typeof AjvCompiler>
type SerializerFactory = ReturnType<typeof SerializerSelector>
type Validate = ((data: unknown) => unknown) & { errors?: unknown }
type Serialize = (data: unknown) => string

/** Ajv, as Fastify builds it by default, its route code generated at each route's first call. */
const lazyValidators =
  (pool: ValidatorFactory): ValidatorFactory =>
  (externalSchemas, options) => {
    let compiler: ReturnType<ValidatorFactory> | undefined
    const compileRoute = ((route) => {
      let validate: Validate | undefined
      // Fastify reads a failed validation's `errors` off the function it holds.
      const lazy: Validate = (data) => {
        compiler ??= pool(externalSchemas, options)
        validate ??= compiler(route) as Validate
        const valid = validate(data)
        lazy.errors = validate.errors
        return valid
      }
      return lazy
    }) as ReturnType<ValidatorFactory>
    return compileRoute
  }

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
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for
 * answers — the same factories, with the same options), each route's code
 * generated at its first call instead of at start-up: compiling every route's
 * schemas up front took about a second of every start, for routes a given
 * process may never serve. A schema that cannot compile still fails — on its
 * route's first call, which every route's tests make.
 */
export const lazySchemaCompilers = () => ({
  // One pool of each per server, as Fastify keeps them.
  buildValidator: lazyValidators(AjvCompiler()),
  buildSerializer: lazySerializers(SerializerSelector()),
})
