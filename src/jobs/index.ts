/**
 * @module jobs
 * Background jobs for every area: see {@link Jobs} (`ctx.jobs`).
 */
export { Jobs, backoffMs, DEFAULT_RUNNER_OPTIONS, type RunnerOptions, type ScheduleInfo } from './runner.js';
export { JOB_STATUSES, type EnqueueOptions, type Job, type JobStatus, type ListFilter } from './store.js';
export { parseEvery, nextRun, type Every } from './schedule.js';
