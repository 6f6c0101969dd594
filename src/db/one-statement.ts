import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Holds a unit declared to be one statement (UnitOfWork.oneStatement) to its word. On
 * PostgreSQL such a unit runs without BEGIN and COMMIT, so a second statement would commit apart
 * from the first: it is refused, before it runs when Kysely compiles it here, or as soon as it
 * answers when it was compiled once beforehand (the prepared queries). Either way the test that
 * takes the path fails, which is what this is for.
 */
export class OneStatementOnly implements KyselyPlugin {
  private first: unknown = null;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.note(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.note(args.queryId);
    return args.result;
  }

  private note(queryId: unknown): void {
    this.first ??= queryId;
    if (this.first !== queryId) {
      throw new Error('a unit of one statement (oneStatement) sent a second one: make it a transaction');
    }
  }
}
