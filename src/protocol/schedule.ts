/**
 * Scheduled flows: a saved flow replayed by the extension on its own, every N minutes or daily at
 * a local time, with no client and no model, keeping a bounded history of its runs. Only the
 * side panel sets them (panel methods); the worker runs them from chrome.alarms.
 */
import { z } from 'zod';
import { FlowNameSchema, FlowStepOutcomeSchema } from './flows';

/** Chromium fires an alarm at most every 30 s. */
export const SCHEDULE_MIN_MINUTES = 0.5;
/** A week: past that a daily time says it better. */
export const SCHEDULE_MAX_MINUTES = 7 * 24 * 60;
/** How many runs each scheduled flow keeps (the oldest go first). */
export const SCHEDULE_HISTORY_LIMIT = 50;

export const DailyTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a daily time is HH:MM, 24-hour, from 00:00 to 23:59')
  .describe('a local time of day, HH:MM (24-hour)');

export const ScheduleEverySchema = z
  .union([
    z
      .object({
        minutes: z
          .number()
          .min(SCHEDULE_MIN_MINUTES, `every N minutes needs N of at least ${SCHEDULE_MIN_MINUTES} (Chromium fires an alarm at most every 30 s)`)
          .max(SCHEDULE_MAX_MINUTES, `every N minutes needs N of at most ${SCHEDULE_MAX_MINUTES} (7 days)`),
      })
      .strict(),
    z.object({ dailyAt: DailyTimeSchema }).strict(),
  ])
  .describe('how often: { minutes } (0.5 to 10080) or { dailyAt: "HH:MM" } in the browser\'s local time');
export type ScheduleEvery = z.infer<typeof ScheduleEverySchema>;

export const ScheduleSchema = z
  .object({
    flow: FlowNameSchema,
    every: ScheduleEverySchema,
    enabled: z.boolean(),
    createdAt: z.string().describe('when it was set (ISO 8601)'),
  })
  .strict()
  .describe('a saved flow the extension replays on its own');
export type Schedule = z.infer<typeof ScheduleSchema>;

/** A schedule as the panel shows it: with when it runs next (from its alarm). */
export const ScheduleInfoSchema = ScheduleSchema.extend({
  nextRunAt: z.number().optional().describe('when it runs next (ms since epoch); absent when no alarm is set'),
});
export type ScheduleInfo = z.infer<typeof ScheduleInfoSchema>;

export const ScheduleRunSchema = z
  .object({
    flow: z.string(),
    startedAt: z.number().describe('ms since epoch'),
    endedAt: z.number(),
    success: z.boolean(),
    error: z.object({ code: z.string(), message: z.string() }).strict().optional(),
    /** The step that failed (its number from 1, id and description), when one did. */
    failedStep: z.object({ index: z.number().int(), id: z.string(), description: z.string() }).strict().optional(),
    steps: z.array(FlowStepOutcomeSchema).optional().describe('what each step did, for a run that finished'),
    /** What the extract steps pulled out, in order (only steps that gave data). */
    data: z.array(z.unknown()).optional(),
    url: z.string().optional().describe("the page's URL when the run ended"),
  })
  .strict()
  .describe('one run of a scheduled flow');
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

export const ScheduleMethods = {
  /** Schedule a saved flow (replacing its schedule); NOT_FOUND for a flow not saved in the extension. */
  'schedule.set': {
    params: z.object({ flow: FlowNameSchema, every: ScheduleEverySchema, enabled: z.boolean().optional() }).strict(),
    result: ScheduleInfoSchema,
  },
  'schedule.remove': { params: z.object({ flow: FlowNameSchema }).strict(), result: z.object({ removed: z.boolean() }) },
  'schedule.list': { params: z.object({}).strict(), result: z.array(ScheduleInfoSchema) },
  /** A flow's runs, newest first. */
  'schedule.history': { params: z.object({ flow: FlowNameSchema }).strict(), result: z.array(ScheduleRunSchema) },
} as const;
