/**
 * @module test-support/sequencer
 * File order for `vitest run`: the long files first, so that on two workers none of them starts last
 * and runs alone while the other worker is idle. Vitest orders by the durations of the previous run
 * when it has them (its cache); a fresh checkout (CI) has none and would order by file size, which
 * puts the short-but-slow fault tests (child processes, browsers) at the end. The list names those
 * files (longest first, as measured); the others follow in vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FIRST = [
  'src/namespaces/event-import/crash.test.ts',
  'src/workers.test.ts',
  'src/cluster-crash.test.ts',
  'test/route-fuzz.test.ts',
  'src/namespaces/tickets/checkout-crash.test.ts',
  'src/server-shutdown.test.ts',
  'src/namespaces/events/search-index.test.ts',
  'src/admin/authorize-application.browser.test.ts',
  'src/namespaces/shop-admin/coming-soon.browser.test.ts',
  'src/namespaces/shop-analytics/seed-orders.test.ts',
  'src/namespaces/event-import/batch.routes.test.ts',
  'test/authorization-matrix.test.ts',
  'src/rest/batch-crash.test.ts',
  'src/workers-sqlite.test.ts',
  'src/startup.test.ts',
  'src/namespaces/mailing-list/pages.browser.test.ts',
  'src/namespaces/calendar-views/calendar.browser.test.ts',
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i === -1 ? SLOW_FIRST.length : i;
    };
    // A stable sort: the listed files in list order, then the rest as vitest ordered them.
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}
