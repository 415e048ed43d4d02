/**
 * Approval of risky steps, declared once: what a caller asks to approve (`approval` on act,
 * agent and batch), what the worker asks a person (or the caller) before such a step, and the
 * answer. A step that matches waits for a decision; no answer by the deadline is a refusal
 * (NOT_APPROVED), never a go-ahead.
 */
import { z } from 'zod';

/**
 * The kinds of step that can need approval:
 * - submit: submitting a form (a submit button, Enter in a form's field, a button or link that says so);
 * - delete: deleting or removing something;
 * - pay: paying, buying, ordering, subscribing;
 * - leave-site: going to another site (a link or a goto to another host);
 * - upload: choosing a file to upload.
 */
export const APPROVAL_KINDS = ['submit', 'delete', 'pay', 'leave-site', 'upload'] as const;
export const ApprovalKindSchema = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKindSchema>;

/** How long a step waits for a decision by default, and at most. */
export const APPROVAL_DEFAULT_TIMEOUT_MS = 120_000;
export const APPROVAL_MAX_TIMEOUT_MS = 600_000;

export const ApprovalPolicySchema = z
  .object({
    when: z.array(ApprovalKindSchema).max(APPROVAL_KINDS.length).optional().describe('the kinds of step that wait'),
    words: z
      .array(z.string().trim().min(1).max(100))
      .max(50)
      .optional()
      .describe('more steps that wait: those whose element or instruction says one of these words (whole words, any case)'),
    timeout: z
      .number()
      .int()
      .min(100)
      .max(APPROVAL_MAX_TIMEOUT_MS)
      .optional()
      .describe('how long a step waits for a decision (default 2 minutes, from 100 ms to 10 minutes); then it is refused'),
  })
  .strict()
  .refine((p) => (p.when?.length ?? 0) > 0 || (p.words?.length ?? 0) > 0, { message: 'approval needs at least one kind in `when` or one word in `words`' })
  .describe('steps that wait for a person (or the caller) to approve them before they are carried out');
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;
export type ApprovalPolicyInput = z.input<typeof ApprovalPolicySchema>;

/** What a person is asked: what will be done, to which element, on which page, and why it needs approval. */
export const ApprovalRequestSchema = z
  .object({
    /** Names this request; answers and the HTTP approval endpoint refer to it. */
    id: z.string(),
    /** The operation's opId, when it has one: the caller's handler for that call answers first. */
    opId: z.string().optional(),
    /** The kinds it matched (and `words` when a word of the caller's list matched). */
    kinds: z.array(z.union([ApprovalKindSchema, z.literal('words')])).min(1),
    /** The words of the caller's list it matched. */
    words: z.array(z.string()).optional(),
    /** The action: click, fill, press, goto, ... */
    method: z.string(),
    /** Its arguments, variables shown as %name% (a value never travels here). */
    arguments: z.array(z.string()),
    /** The element, as a person reads it ("button 'Place order'"); the URL for a goto. */
    element: z.string(),
    /** The page it happens on. */
    url: z.string(),
    /** Where it leads, when that is known (a link's or a form's target, a goto's URL). */
    target: z.string().optional(),
    /** One line saying what will be done and why it waits. */
    summary: z.string(),
    /** When it stops waiting and is refused (ms since epoch). */
    deadline: z.number(),
  })
  .strict()
  .describe('a step that waits for approval: what will be done, to which element, and why');
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;

/** approve: carry it out; skip: do not, and go on (an agent is told it was skipped); stop: do not, and end the run. */
export const ApprovalDecisionSchema = z.enum(['approve', 'skip', 'stop']);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** A decision and who made it. null: this answerer cannot decide (no one to ask); others still may. */
export const ApprovalAnswerSchema = z.object({ decision: ApprovalDecisionSchema.nullable(), by: z.string().max(100).optional() }).strict();
export type ApprovalAnswer = z.infer<typeof ApprovalAnswerSchema>;

/** The end of a request: its decision and who made it, or that nobody answered in time. */
export const ApprovalSettledSchema = z
  .object({ id: z.string(), decision: z.union([ApprovalDecisionSchema, z.literal('timeout'), z.literal('cancelled')]), by: z.string().optional() })
  .strict();
export type ApprovalSettled = z.infer<typeof ApprovalSettledSchema>;

/** Calls the worker makes, to a side panel and to the caller whose step waits. */
export const ApprovalClientMethods = {
  /** Ask for a decision; the worker takes the first answer with a decision from any of them. */
  'approval.request': { params: ApprovalRequestSchema, result: ApprovalAnswerSchema },
  /** The request was decided (by someone) or timed out: stop asking. */
  'approval.settled': { params: ApprovalSettledSchema, result: z.null() },
} as const;

/** What the content script reads of an element before a gated action (the dh:op 'risk'). */
export const RiskFactsSchema = z.object({
  tag: z.string(),
  type: z.string().optional(),
  role: z.string().optional(),
  /** What the element says (its label, text, a button's value), clipped. */
  text: z.string(),
  /** The link it is in, resolved. */
  href: z.string().optional(),
  /** A click on it submits its form. */
  submits: z.boolean(),
  /** Enter in it submits its form (a single-line field of a form). */
  enterSubmits: z.boolean(),
  /** Where its form goes. */
  formAction: z.string().optional(),
  /** It chooses a file to upload (a file input, or its label). */
  file: z.boolean(),
});
export type RiskFacts = z.infer<typeof RiskFactsSchema>;

/**
 * Decides one step that waits for approval, on the caller's side (a client's onApproval): 'approve',
 * 'skip' or 'stop', or null to leave it to others (the side panel) and the deadline. `signal`
 * aborts when the request ends another way.
 */
export type ApprovalHandler = (
  request: ApprovalRequest,
  ctx: { signal: AbortSignal },
) => ApprovalDecision | null | undefined | Promise<ApprovalDecision | null | undefined>;
