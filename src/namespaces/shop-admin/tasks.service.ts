/**
 * @module namespaces/shop-admin/tasks.service
 * Task lists and tasks as the original presents them (`TaskList::get_json`, `Task::get_json`), with
 * completion computed from the live site and the hide / dismiss / action / snooze / visited state
 * kept in the original's options.
 */
import type { AppContext } from '../../app-context.js';
import { EVENT_TYPE } from '../events/index.js';
import { TICKET_POST_TYPES } from '../tickets/index.js';
import { TASK_LISTS, readTaskFacts, type TaskDef, type TaskFacts, type TaskListDef } from './tasks.model.js';

export const TASK_OPTIONS = {
  hiddenLists: 'woocommerce_task_list_hidden_lists',
  completedLists: 'woocommerce_task_list_completed_lists',
  dismissed: 'woocommerce_task_list_dismissed_tasks',
  trackedCompleted: 'woocommerce_task_list_tracked_completed_tasks',
  actioned: 'woocommerce_task_list_tracked_completed_actions',
  snoozed: 'woocommerce_task_list_remind_me_later_tasks',
  keepCompleted: 'woocommerce_task_list_keep_completed',
  homepageLayout: 'woocommerce_default_homepage_layout',
} as const;

const SNOOZE_MS: Readonly<Record<string, number>> = { hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
export const SNOOZE_DURATIONS = Object.keys(SNOOZE_MS);

const visitedOption = (userId: number) => `task_list_tracked_started_tasks:${userId}`;

async function list(ctx: AppContext, name: string): Promise<string[]> {
  const v = await ctx.options.get<unknown>(name, []);
  return Array.isArray(v) ? v.map(String) : [];
}

async function addTo(ctx: AppContext, name: string, id: string): Promise<void> {
  const cur = await list(ctx, name);
  if (!cur.includes(id)) await ctx.options.set(name, [...cur, id]);
}

async function removeFrom(ctx: AppContext, name: string, id: string): Promise<void> {
  const cur = await list(ctx, name);
  if (cur.includes(id)) await ctx.options.set(name, cur.filter((x) => x !== id));
}

/** Everything a task object is built from, read once per request. */
interface TaskState {
  facts: TaskFacts;
  dismissed: string[];
  actioned: string[];
  hiddenLists: string[];
  snoozed: Record<string, number>;
  visited: string[];
  keepCompleted: string;
  now: number;
  adminUrl: string;
}

async function readState(ctx: AppContext, userId: number): Promise<TaskState> {
  const snoozed = await ctx.options.get<unknown>(TASK_OPTIONS.snoozed, {});
  return {
    facts: await readTaskFacts(ctx, { event: EVENT_TYPE, tickets: TICKET_POST_TYPES }),
    dismissed: await list(ctx, TASK_OPTIONS.dismissed),
    actioned: await list(ctx, TASK_OPTIONS.actioned),
    hiddenLists: await list(ctx, TASK_OPTIONS.hiddenLists),
    snoozed: snoozed && typeof snoozed === 'object' && !Array.isArray(snoozed) ? (snoozed as Record<string, number>) : {},
    visited: await list(ctx, visitedOption(userId)),
    keepCompleted: String(await ctx.options.get(TASK_OPTIONS.keepCompleted, 'no')),
    now: ctx.now().getTime(),
    adminUrl: ctx.urls.admin,
  };
}

function taskJson(task: TaskDef, listId: string, s: TaskState): Record<string, unknown> {
  const isActioned = s.actioned.includes(task.id);
  const snoozedUntil = s.snoozed[task.id];
  return {
    id: task.id,
    parentId: listId,
    title: task.title,
    canView: true,
    content: task.content,
    additionalInfo: '',
    actionLabel: task.actionLabel,
    actionUrl: task.actionPath === null ? null : `${s.adminUrl}${task.actionPath}`,
    isComplete: task.complete ? task.complete(s.facts) : isActioned,
    time: task.time,
    level: task.level,
    isActioned,
    isDismissed: s.dismissed.includes(task.id),
    isDismissable: task.isDismissable,
    isSnoozed: false,
    isSnoozeable: false,
    isVisited: s.visited.includes(task.id),
    isDisabled: false,
    snoozedUntil: typeof snoozedUntil === 'number' && snoozedUntil > s.now ? snoozedUntil : null,
    additionalData: {},
    eventPrefix: 'tasklist_',
    recordViewEvent: false,
  };
}

function listJson(def: TaskListDef, s: TaskState, extra: Record<string, unknown>[] = []): Record<string, unknown> {
  let tasks = [...def.tasks.map((t) => taskJson(t, def.id, s)), ...extra];
  if (def.sortIncompleteFirst) tasks = [...tasks.filter((t) => !t.isComplete), ...tasks.filter((t) => t.isComplete)];
  const viewable = tasks.filter((t) => t.canView);
  const isHidden = s.hiddenLists.includes(def.id);
  return {
    id: def.id,
    title: def.title,
    isHidden,
    isVisible: !def.invisible && viewable.length > 0 && !isHidden,
    isComplete: viewable.every((t) => t.isComplete || t.isDismissed),
    eventPrefix: `${def.id === 'setup' ? 'tasklist' : `${def.id}_tasklist`}_`,
    displayProgressHeader: def.displayProgressHeader,
    keepCompletedTaskList: s.keepCompleted,
    tasks: viewable,
  };
}

/** A client-side (legacy) task sent with `extended_tasks`: must carry `list_id` and `id`. */
export interface ExtendedTask {
  list_id: string;
  id: string;
  [key: string]: unknown;
}

/** The lists (all, or those named by `ids`), recording lists whose tasks are all complete. */
export async function taskLists(ctx: AppContext, userId: number, ids?: readonly string[], extended: readonly ExtendedTask[] = []): Promise<Record<string, unknown>[]> {
  const s = await readState(ctx, userId);
  const out: Record<string, unknown>[] = [];
  for (const def of TASK_LISTS) {
    if (ids && ids.length > 0 && !ids.includes(def.id)) continue;
    const extra = extended
      .filter((t) => t.list_id === def.id)
      .map((t) => ({ ...taskJson({ id: t.id, title: String(t.title ?? t.id), content: String(t.content ?? ''), actionLabel: String(t.actionLabel ?? ''), actionPath: null, time: String(t.time ?? ''), level: 3, isDismissable: true }, def.id, s), ...t, parentId: def.id }));
    const json = listJson(def, s, extra);
    if (json.isComplete && (json.tasks as unknown[]).length > 0) await addTo(ctx, TASK_OPTIONS.completedLists, def.id);
    out.push(json);
  }
  return out;
}

/** The task named `id` with its list, or undefined for an unknown (legacy) id. */
function findTask(id: string): { task: TaskDef; list: TaskListDef } | undefined {
  for (const list of TASK_LISTS) for (const task of list.tasks) if (task.id === id) return { task, list };
  return undefined;
}

/** A legacy task the original accepts by id alone. */
function legacyTask(id: string): TaskDef {
  return { id, title: id, content: '', actionLabel: '', actionPath: null, time: '', level: 3, isDismissable: true };
}

async function taskResult(ctx: AppContext, userId: number, id: string, listId?: string): Promise<Record<string, unknown>> {
  const found = findTask(id);
  const s = await readState(ctx, userId);
  return taskJson(found?.task ?? legacyTask(id), found?.list.id ?? listId ?? 'setup', s);
}

export type TaskAction = 'dismiss' | 'undo_dismiss' | 'action' | 'snooze' | 'undo_snooze';

/** Per-task actions; undefined when the task may not take the action (404 `woocommerce_rest_invalid_task`). */
export async function actOnTask(ctx: AppContext, userId: number, id: string, action: TaskAction, opts: { duration?: string; taskListId?: string } = {}): Promise<Record<string, unknown> | undefined> {
  const found = findTask(id);
  const dismissable = found ? found.task.isDismissable : true;
  // CASE: no task class here is snoozeable (as in the original's current classes); unknown legacy ids are.
  const snoozeable = !found;
  switch (action) {
    case 'dismiss':
      if (!dismissable) return undefined;
      await addTo(ctx, TASK_OPTIONS.dismissed, id);
      break;
    case 'undo_dismiss':
      if (!dismissable) return undefined;
      await removeFrom(ctx, TASK_OPTIONS.dismissed, id);
      break;
    case 'action':
      await addTo(ctx, TASK_OPTIONS.actioned, id);
      await addTo(ctx, visitedOption(userId), id);
      break;
    case 'snooze': {
      if (!snoozeable) return undefined;
      const cur = { ...(await ctx.options.get<Record<string, number>>(TASK_OPTIONS.snoozed, {})) };
      cur[id] = ctx.now().getTime() + (SNOOZE_MS[opts.duration ?? 'day'] ?? SNOOZE_MS.day!);
      await ctx.options.set(TASK_OPTIONS.snoozed, cur);
      break;
    }
    case 'undo_snooze': {
      if (!snoozeable) return undefined;
      const cur = { ...(await ctx.options.get<Record<string, number>>(TASK_OPTIONS.snoozed, {})) };
      delete cur[id];
      await ctx.options.set(TASK_OPTIONS.snoozed, cur);
      break;
    }
  }
  const result = await taskResult(ctx, userId, id, opts.taskListId);
  if (action === 'snooze' || action === 'undo_snooze') {
    const until = (await ctx.options.get<Record<string, number>>(TASK_OPTIONS.snoozed, {}))[id];
    result.isSnoozed = action === 'snooze';
    result.snoozedUntil = action === 'snooze' ? (until ?? null) : null;
    result.isSnoozeable = true;
  }
  return result;
}

/** Hides or shows a list; undefined for an unknown list. Hiding `setup` hides the secret list too. */
export async function setListHidden(ctx: AppContext, userId: number, listId: string, hidden: boolean): Promise<Record<string, unknown> | undefined> {
  const def = TASK_LISTS.find((l) => l.id === listId);
  if (!def) return undefined;
  const ids = listId === 'setup' ? ['setup', 'secret_tasklist'] : [listId];
  for (const id of ids) await (hidden ? addTo(ctx, TASK_OPTIONS.hiddenLists, id) : removeFrom(ctx, TASK_OPTIONS.hiddenLists, id));
  if (hidden && listId === 'setup') await ctx.options.set(TASK_OPTIONS.homepageLayout, 'two_columns');
  return listJson(def, await readState(ctx, userId));
}
