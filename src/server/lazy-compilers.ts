import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for responses), each
 * route's schemas compiled on the route's first request instead of all of them at start. At
 * start they were about a quarter of the CPU a process spends before it is ready, and a restart
 * must be ready fast (docs/reliability.md, restart to ready); a route's first request pays a few
 * milliseconds instead. The schemas are the same and so are the answers: the OpenAPI test and
 * every route's tests compile them all.
 */
export function lazyCompilers(): CompilersFactory {
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  return {
    buildValidator: (externalSchemas, ajvOptions) => {
      const compile = buildValidator(externalSchemas as Parameters<typeof buildValidator>[0], ajvOptions as never);
      return (route) => {
        let validate: Validate | undefined;
        // Fastify reads `errors` from the function it was given, after each call.
        const lazy: Validate = (data) => {
          validate ??= compile(route as Parameters<typeof compile>[0]) as Validate;
          const valid = validate(data);
          lazy.errors = validate.errors;
          return valid;
        };
        // Not an Ajv function (no `schemaEnv`): Fastify then calls it with the data alone, which
        // only matters for type coercion, and coercion is off (app.ts).
        return lazy as unknown as ReturnType<ReturnType<typeof buildValidator>>;
      };
    },
    buildSerializer: (externalSchemas, options) => {
      const compile = buildSerializer(externalSchemas, options as never);
      return (route) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => {
          serialize ??= compile(route as Parameters<typeof compile>[0]);
          return serialize(doc);
        };
      };
    },
  };
}
