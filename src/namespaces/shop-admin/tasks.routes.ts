/**
 * @module namespaces/shop-admin/tasks.routes
 * `onboarding/tasks` (lists and per-task actions) and the task helpers that create real content:
 * `import_sample_products`, `create_homepage`, `create_product_from_template`, `onboarding/products`.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { postDatePair, siteTimeZone, uniquePostSlug } from '../../content/posts.js';
import { isRestError } from '../../rest/errors.js';
import { CREATABLE, EDITABLE, respond, type ArgSchema, type Permission, type RestRequest, type RouteDef } from '../../rest/route.js';
import { saveEvent } from '../events/index.js';
import { addTicket } from '../tickets/index.js';
import { canManageTasks } from './access.js';
import { ShopAdminErrors } from './errors.js';
import { HOMEPAGE, SAMPLE_EVENTS, TICKET_TEMPLATES } from './samples.js';
import { SNOOZE_DURATIONS, actOnTask, setListHidden, taskLists, type ExtendedTask, type TaskAction } from './tasks.service.js';
import { TASK_LIST_IDS } from './tasks.model.js';

const idsArg: ArgSchema = { description: 'Optional parameter to get only specific task lists by id.', type: 'array', items: { type: 'string', enum: TASK_LIST_IDS } };
/** The product-create capability of the original: here, creating (and publishing) events. */
const canCreateEvents: Permission<AppContext> = (req) => req.user?.can('publish_tribe_events') === true || ShopAdminErrors.cannotCreate(req);

const taskIdArg: ArgSchema = { description: 'The task or task list ID.', type: 'string', required: true };

function userId(req: RestRequest): number {
  return req.user?.id ?? 0;
}

async function getTasks(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const ids = Array.isArray(req.params.ids) ? (req.params.ids as string[]) : undefined;
  return taskLists(ctx, userId(req), ids);
}

async function postTasks(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const ids = Array.isArray(req.params.ids) ? (req.params.ids as string[]) : undefined;
  const raw = Array.isArray(req.params.extended_tasks) ? (req.params.extended_tasks as unknown[]) : [];
  const extended = raw.filter((t): t is ExtendedTask => t !== null && typeof t === 'object' && typeof (t as ExtendedTask).list_id === 'string' && typeof (t as ExtendedTask).id === 'string');
  return taskLists(ctx, userId(req), ids, extended);
}

function taskAction(action: TaskAction) {
  return async (req: RestRequest, ctx: AppContext) => {
    const opts = { duration: req.params.duration as string | undefined, taskListId: req.params.task_list_id as string | undefined };
    const result = await actOnTask(ctx, userId(req), String(req.params.id), action, opts);
    if (!result) throw ShopAdminErrors.invalidTask();
    return result;
  };
}

function listVisibility(hidden: boolean) {
  return async (req: RestRequest, ctx: AppContext) => {
    const result = await setListHidden(ctx, userId(req), String(req.params.id), hidden);
    if (!result) throw hidden ? ShopAdminErrors.invalidTaskList() : ShopAdminErrors.unhideInvalidTaskList();
    return result;
  };
}

/** Adds the bundled sample events with their tickets; re-running skips the ones that exist. */
async function importSampleProducts(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const imported: number[] = [];
  const skipped: number[] = [];
  const failed: string[] = [];
  const zone = await siteTimeZone(ctx.options);
  const today = DateTime.fromJSDate(ctx.now()).setZone(zone).startOf('day');
  for (const sample of SAMPLE_EVENTS) {
    const existing = await ctx.db.selectFrom('posts').select('id').where('type', '=', 'tribe_events').where('title', '=', sample.title).where('status', '!=', 'trash').executeTakeFirst();
    if (existing) {
      skipped.push(existing.id);
      continue;
    }
    const start = today.plus({ days: sample.inDays }).set({ hour: sample.hour });
    const id = await saveEvent(ctx, {
      title: sample.title,
      description: sample.description,
      status: 'publish',
      start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
      end_date: start.plus({ hours: sample.hours }).toFormat('yyyy-MM-dd HH:mm:ss'),
      cost: sample.cost,
    }, req.user);
    imported.push(id);
    for (const t of sample.tickets) {
      const ticket = await addTicket(ctx, userId(req), { postId: id, name: t.name, price: t.price, capacity: t.capacity, description: t.description });
      if (ticket === undefined || isRestError(ticket)) failed.push(`${sample.title}: ${t.name}`);
    }
  }
  return { imported, failed, updated: [], skipped };
}

/** Creates a front page and makes it the site's front page. */
async function createHomepage(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const zone = await siteTimeZone(ctx.options);
  const { local, gmt } = postDatePair(ctx.now(), zone);
  const slug = await uniquePostSlug(ctx.db, 'page', 'home');
  const row = await ctx.db
    .insertInto('posts')
    .values({
      type: 'page', status: 'publish', slug, title: HOMEPAGE.title, content: HOMEPAGE.content, excerpt: '', author: userId(req), parent: 0,
      password: '', menu_order: 0, date: local, date_gmt: gmt, modified: local, modified_gmt: gmt, image_url: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.options.set('show_on_front', 'page');
  await ctx.options.set('page_on_front', row.id);
  return {
    status: 'success',
    message: 'Homepage created',
    post_id: row.id,
    edit_post_link: `${ctx.urls.admin}post.php?post=${row.id}&action=edit`,
  };
}

/** A draft ticket from a named template, on a draft event made to hold it. */
async function createFromTemplate(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const name = String(req.params.template_name);
  const template = TICKET_TEMPLATES[name];
  if (!template) throw ShopAdminErrors.productCreation(`Unknown template "${name}"; known: ${Object.keys(TICKET_TEMPLATES).join(', ')}.`);
  // The draft event holding the ticket starts a week from now; the owner sets the real date.
  const zone = await siteTimeZone(ctx.options);
  const start = DateTime.fromJSDate(ctx.now()).setZone(zone).startOf('day').plus({ days: 7, hours: 19 });
  const eventId = await saveEvent(ctx, {
    title: `New event (${template.name})`,
    status: 'draft',
    start_date: start.toFormat('yyyy-MM-dd HH:mm:ss'),
    end_date: start.plus({ hours: 2 }).toFormat('yyyy-MM-dd HH:mm:ss'),
  }, req.user);
  const id = await addTicket(ctx, userId(req), { postId: eventId, name: template.name, price: template.price, description: template.description, capacity: template.capacity });
  if (id === undefined || isRestError(id)) throw ShopAdminErrors.productCreation(isRestError(id) ? id.message : 'The event is missing.');
  return { id };
}

/** `POST /onboarding/products`: the sample events, answered like the original's product import. */
async function onboardingProducts(req: RestRequest, ctx: AppContext): Promise<unknown> {
  return respond(await importSampleProducts(req, ctx), { status: 200 });
}

export const taskRouteDefs: RouteDef<AppContext>[] = [
  { path: '/onboarding/tasks/import_sample_products', endpoints: [{ methods: CREATABLE, permission: canCreateEvents, handler: importSampleProducts }] },
  {
    path: '/onboarding/tasks/create_homepage',
    endpoints: [{ methods: CREATABLE, permission: (req) => (req.user?.can('manage_options') && req.user.can('publish_pages')) === true, handler: createHomepage }],
  },
  {
    path: '/onboarding/tasks/create_product_from_template',
    endpoints: [{ methods: CREATABLE, args: { template_name: { description: 'Product template name.', type: 'string', required: true } }, permission: canCreateEvents, handler: createFromTemplate }],
  },
  {
    path: '/onboarding/tasks',
    endpoints: [
      { methods: ['GET'], args: { ids: idsArg }, permission: canManageTasks, handler: getTasks },
      { methods: CREATABLE, args: { ids: idsArg, extended_tasks: { description: 'List of extended deprecated tasks from the client side filter.', type: 'array' } }, permission: canManageTasks, handler: postTasks },
    ],
  },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/hide', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: listVisibility(true) }] },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/unhide', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: listVisibility(false) }] },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/dismiss', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: taskAction('dismiss') }] },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/undo_dismiss', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: taskAction('undo_dismiss') }] },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/action', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: taskAction('action') }] },
  { path: '/onboarding/tasks/{id:[a-z0-9_-]+}/undo_snooze', endpoints: [{ methods: EDITABLE, args: { id: taskIdArg }, permission: canManageTasks, handler: taskAction('undo_snooze') }] },
  {
    path: '/onboarding/tasks/{id:[a-z0-9_-]+}/snooze',
    endpoints: [
      {
        methods: CREATABLE,
        args: {
          id: taskIdArg,
          duration: { description: 'Time period to snooze the task.', type: 'string', validate: (v) => SNOOZE_DURATIONS.includes(String(v)) || `duration is not one of ${SNOOZE_DURATIONS.join(', ')}.` },
          task_list_id: { description: 'Optional parameter to query specific task list.', type: 'string' },
        },
        permission: canManageTasks,
        handler: taskAction('snooze'),
      },
    ],
  },
  { path: '/onboarding/products', endpoints: [{ methods: CREATABLE, permission: canCreateEvents, handler: onboardingProducts }] },
];
