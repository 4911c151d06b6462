/**
 * @module test-support/statement-counter
 * A Kysely plugin counting the statements run through the database it is plugged into (on
 * PostgreSQL each is a round trip). Transaction control (`BEGIN`, `COMMIT`) goes around plugins and
 * is not counted.
 *
 * @example
 * const counter = new StatementCounter();
 * await qrCheckIn({ ...t.ctx, db: t.db.withPlugin(counter) }, call);
 * expect(counter.executed).toBe(1);
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

export class StatementCounter implements KyselyPlugin {
  executed = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.executed++;
    return args.result;
  }
}
