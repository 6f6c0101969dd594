import { isDeepStrictEqual } from 'node:util';
import type { SwaggerOptions } from '@fastify/swagger';

type Schema = Record<string, unknown>;
type Media = { content?: Record<string, { schema?: Schema }> };
type Operation = { operationId?: string; requestBody?: Media; responses?: Record<string, Media> };
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Hooks = Required<Pick<Extract<SwaggerOptions, { mode?: 'dynamic' }>, 'transform' | 'transformObject'>>;

const pascal = (id: string): string => id.charAt(0).toUpperCase() + id.slice(1);

/**
 * Gives every request body and success answer of the OpenAPI document a name under
 * components.schemas, referenced from the operation: a client generated from the document
 * (packages/sdk, openapi-typescript) then has a type per body and answer instead of anonymous
 * inline objects. @fastify/swagger inlines a route's top-level schemas even when they carry an
 * `$id`; these hooks move them to the components. An answer is named by its `$id`
 * (`CheckoutPreference`, `PaymentOrderPage`), anything else after its operation
 * (`CreateCheckoutPreferenceRequest`, `TestHelperAdvanceClockResponse`); two operations with the
 * same body (POST and PATCH of one object) share the first name. Only the document changes:
 * the schemas Fastify validates and answers with are the routes' own.
 */
export function operationSchemaNames(): Hooks {
  // operationId → status → the $id of that answer's schema, read from the routes.
  const answerIds = new Map<string, Map<string, string>>();
  return {
    transform: ({ schema, url }) => {
      const { operationId, response } = (schema ?? {}) as {
        operationId?: string;
        response?: Record<string, { $id?: unknown }>;
      };
      if (operationId && response) {
        const ids = new Map<string, string>();
        for (const [status, answer] of Object.entries(response)) {
          if (typeof answer?.$id === 'string') {
            ids.set(status, answer.$id);
          }
        }
        answerIds.set(operationId, ids);
      }
      return { schema, url };
    },
    transformObject: (documentObject) => {
      const document = ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as Document;
      document.components ??= {};
      document.components.schemas ??= {};
      const schemas = document.components.schemas;
      const place = (schema: Schema, name: string, shareByShape: boolean): Schema => {
        if (typeof schema.$ref === 'string') {
          return schema;
        }
        const existing = schemas[name];
        if (existing === undefined && shareByShape) {
          const same = Object.entries(schemas).find(([, s]) => isDeepStrictEqual(s, schema));
          if (same) {
            return { $ref: `#/components/schemas/${same[0]}` };
          }
        }
        if (existing !== undefined && !isDeepStrictEqual(existing, schema)) {
          throw new Error(`OpenAPI: two different schemas are named ${name}`);
        }
        schemas[name] = schema;
        return { $ref: `#/components/schemas/${name}` };
      };
      for (const operations of Object.values(document.paths ?? {})) {
        for (const operation of Object.values(operations)) {
          const id = operation.operationId;
          if (!id) {
            continue;
          }
          for (const media of Object.values(operation.requestBody?.content ?? {})) {
            if (media.schema) {
              media.schema = place(media.schema, `${pascal(id)}Request`, true);
            }
          }
          for (const [status, answer] of Object.entries(operation.responses ?? {})) {
            if (!status.startsWith('2')) {
              continue;
            }
            const named = answerIds.get(id)?.get(status);
            for (const media of Object.values(answer.content ?? {})) {
              if (media.schema) {
                media.schema = place(media.schema, named ?? `${pascal(id)}Response`, named === undefined);
              }
            }
          }
        }
      }
      return document;
    },
  };
}
