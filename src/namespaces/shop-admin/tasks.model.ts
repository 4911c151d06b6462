/**
 * @module namespaces/shop-admin/tasks.model
 * The task lists of the onboarding checklist, as data: each task's texts and how its completion is
 * read from the live site (events, tickets, payments, settings). Computed in `tasks.service.ts`.
 */
import type { AppContext } from '../../app-context.js';
import { offlinePaymentsEnabled } from '../tickets/index.js';

/** What a task knows about the site when deciding whether it is complete. */
export interface TaskFacts {
  events: number;
  tickets: number;
  paymentsConfigured: boolean;
  storeDetails: boolean;
  taxDecided: boolean;
  themeChosen: boolean;
  launched: boolean;
  mobileAppDismissed: boolean;
}

/** Written `yes` through `options` when the owner closes the check-in app guide; completes `get-mobile-app`. */
export const MOBILE_APP_MODAL_OPTION = 'woocommerce_admin_dismissed_mobile_app_modal';

export interface TaskDef {
  id: string;
  title: string;
  content: string;
  actionLabel: string;
  /** Admin page (relative to the admin URL) the task sends the owner to; null where the task is done through the API. */
  actionPath: string | null;
  time: string;
  level: number;
  isDismissable: boolean;
  /** Complete from live data; tasks without it are complete once actioned. */
  complete?: (facts: TaskFacts) => boolean;
}

export interface TaskListDef {
  id: 'setup' | 'extended' | 'secret_tasklist';
  title: string;
  displayProgressHeader: boolean;
  /** Incomplete tasks first (the `extended` list). */
  sortIncompleteFirst: boolean;
  /** Invisible list, hidden together with `setup`. */
  invisible: boolean;
  tasks: TaskDef[];
}

export const TASK_LISTS: readonly TaskListDef[] = [
  {
    id: 'setup',
    title: 'Get ready to start selling',
    displayProgressHeader: true,
    sortIncompleteFirst: false,
    invisible: false,
    tasks: [
      {
        id: 'store_details', title: 'Add your store details', content: 'Tell us where your store is and how to reach you.',
        actionLabel: 'Add details', actionPath: 'tec-onboarding/', time: '2 minutes', level: 3, isDismissable: false,
        complete: (f) => f.storeDetails,
      },
      {
        id: 'events', title: 'Add your first event', content: 'Put an event on the calendar: a date, a place and a description.',
        actionLabel: 'Add an event', actionPath: null, time: '1 minute', level: 3, isDismissable: false,
        complete: (f) => f.events > 0,
      },
      {
        id: 'products', title: 'Create tickets', content: 'Sell tickets or take RSVPs for your events.',
        actionLabel: 'Create tickets', actionPath: null, time: '1 minute', level: 3, isDismissable: false,
        complete: (f) => f.tickets > 0,
      },
      {
        id: 'payments', title: 'Set up payments', content: 'Choose how buyers pay for tickets.',
        actionLabel: 'Set up payments', actionPath: null, time: '2 minutes', level: 3, isDismissable: false,
        complete: (f) => f.paymentsConfigured,
      },
      {
        id: 'tax', title: 'Collect sales tax', content: 'Decide whether ticket prices include tax.',
        actionLabel: 'Set up tax', actionPath: null, time: '1 minute', level: 3, isDismissable: true,
        complete: (f) => f.taxDecided,
      },
      {
        id: 'customize-store', title: 'Customize your calendar', content: 'Choose a theme for your public calendar pages.',
        actionLabel: 'Choose a theme', actionPath: null, time: '2 minutes', level: 3, isDismissable: false,
        complete: (f) => f.themeChosen,
      },
      {
        id: 'launch-your-store', title: 'Launch your store', content: 'Open the calendar to visitors.',
        actionLabel: 'Launch', actionPath: null, time: '1 minute', level: 3, isDismissable: false,
        complete: (f) => f.launched,
      },
    ],
  },
  {
    id: 'extended',
    title: 'Things to do next',
    displayProgressHeader: false,
    sortIncompleteFirst: true,
    invisible: false,
    tasks: [
      {
        id: 'marketing', title: 'Grow your audience', content: 'Add a mailing-list sign-up and share your events.',
        actionLabel: 'Get started', actionPath: 'mailinglist.php', time: '5 minutes', level: 2, isDismissable: true,
      },
      {
        id: 'get-mobile-app', title: 'Check in with your phone', content: 'Scan attendees’ QR codes at the door with a check-in app.',
        actionLabel: 'Get the app', actionPath: null, time: '2 minutes', level: 2, isDismissable: true,
        complete: (f) => f.mobileAppDismissed,
      },
    ],
  },
  { id: 'secret_tasklist', title: 'Secret tasklist', displayProgressHeader: false, sortIncompleteFirst: false, invisible: true, tasks: [] },
];

export const TASK_LIST_IDS = TASK_LISTS.map((l) => l.id);

/** Reads the facts every task's completion depends on, in a fixed number of queries. */
export async function readTaskFacts(ctx: AppContext, types: { event: string; tickets: readonly string[] }): Promise<TaskFacts> {
  const live = ['publish', 'future', 'draft', 'pending', 'private'];
  const counts = await ctx.db
    .selectFrom('posts')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('type', 'in', [types.event, ...types.tickets])
    .where('status', 'in', live)
    .groupBy('type')
    .execute();
  const count = (list: readonly string[]) => counts.filter((c) => list.includes(c.type)).reduce((a, c) => a + Number(c.n), 0);
  const o = await ctx.options.getMany([
    'woocommerce_default_country', 'woocommerce_calc_taxes', 'woocommerce_no_sales_tax', 'eventsuite_theme', 'woocommerce_coming_soon',
    'admin_email', MOBILE_APP_MODAL_OPTION,
  ]);
  return {
    events: count([types.event]),
    tickets: count(types.tickets),
    paymentsConfigured: Boolean(ctx.config.remotes.payments) || (await offlinePaymentsEnabled(ctx)),
    storeDetails: typeof o.woocommerce_default_country === 'string' && o.woocommerce_default_country !== '',
    taxDecided: o.woocommerce_calc_taxes === 'yes' || o.woocommerce_no_sales_tax === true || o.woocommerce_no_sales_tax === 'yes',
    themeChosen: typeof o.eventsuite_theme === 'string' && o.eventsuite_theme !== '',
    launched: o.woocommerce_coming_soon === 'no',
    mobileAppDismissed: o[MOBILE_APP_MODAL_OPTION] === 'yes',
  };
}
