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
  private answered = 0;

  /** Kysely compiles a statement here: one that comes after the first answered is refused before it runs. */
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.answered > 0) {
      this.refuse();
    }
    return args.node;
  }

  /** Every statement's answer passes here, compiled here or not (a prepared query keeps its compiled form). */
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.answered++;
    if (this.answered > 1) {
      this.refuse();
    }
    return args.result;
  }

  private refuse(): never {
    throw new Error('a unit of one statement (oneStatement) sent a second one: make it a transaction');
  }
}
