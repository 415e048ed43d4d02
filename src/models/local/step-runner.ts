/**
 * What the built-in model's agent (agent/) asks of the engine while it runs a plan: the page
 * as the model reads it, and single steps done through the engine's ports. The engine provides
 * it (engine/agent/plan-steps.ts); this side knows no browser. Elements are named by snapshot
 * ids, and by the selectors `selectors` gives for them.
 */
import type { PageTool } from '../../protocol/page-tools';
import type { OutlineLine } from '../../protocol/model';
import type { Action } from '../../protocol/schemas';
import type { DrawnShapes } from '../../protocol/content-messages';

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface StepRunner {
  instruction: string;
  maxSteps: number;
  signal: AbortSignal;
  /** The page as the model reads it; folded lists keep the items `focus` names. */
  look(focus?: string): Promise<{ lines: OutlineLine[]; text: string; url: string; tools?: PageTool[] }>;
  /** A selector for each snapshot id, null for an id no longer on the page. */
  selectors(ids: string[]): Promise<(string | null)[]>;
  /** One action on an element (the approval of the call applies); the element as a person reads it. */
  perform(selector: string, method: string, args: string[]): Promise<{ element: string }>;
  /** Where an element is in the viewport, once it can be pointed at. */
  pointOf(selector: string): Promise<Point>;
  /** An element's point (as pointOf) and the size of its box. */
  boxOf(selector: string): Promise<Point & Size>;
  /** Where an element that moves by design is at this moment, without waiting for it to keep still. */
  pointNow(selector: string): Promise<Point>;
  /** Click an element that moves by design where it is at that moment (the approval of the call applies). */
  clickMoving(selector: string): Promise<{ element: string; point: Point }>;
  /** Drag an element by an offset or to a point, as a person's pointer would. */
  dragBy(selector: string, move: { dx: number; dy: number } | { to: Point }): Promise<{ element: string; from: Point; to: Point }>;
  /** Resize an element by its corner grip, as a person's pointer would: its size before and after (an element with no grip fails). */
  resizeBy(selector: string, dx: number, dy: number): Promise<{ element: string; before: Size; after: Size }>;
  /**
   * The shapes an element draws, each one's centre and size relative to its top-left corner (an SVG the page takes clicks
   * on); with `marks`, the small boxes drawn inside it instead (a target square on a page that takes clicks everywhere).
   */
  shapesIn(selector: string, marks?: boolean): Promise<{ element: string } & DrawnShapes>;
  /** Click a point inside an element, an offset from its top-left corner, as a person's pointer would. */
  clickInside(selector: string, at: Point): Promise<{ element: string }>;
  /** A stroke of the pointer through points inside an element (offsets from its top-left corner), as a person draws. */
  strokeInside(selector: string, points: Point[]): Promise<{ element: string }>;
  /** Press and hold an element for `ms`, then release it (the approval of the call applies, as to a click). */
  hold(selector: string, ms: number): Promise<{ element: string; heldMs: number }>;
  /** The item texts of the menu an element opens, as the page holds them now (shown or hidden); none when it cannot say. */
  menuTexts(selector: string): Promise<string[]>;
  /**
   * Go to an address in the run's page, as the agent's goto does: under the operator's URL policy (local files and
   * browser pages closed unless opened) and the call's approval; the address the page ended at.
   */
  open(url: string): Promise<{ url: string }>;
  /** Go back one page in the run's page, as the browser's Back does (a walk that came by clicks); the address it is at after. */
  back(): Promise<{ url: string }>;
  /** The page's own date (YYYY-MM-DD), for steps that name a date by description. */
  today(): Promise<string>;
  /** Marks taken before and after a step: whether what it meant to change shows on the page, said in words. */
  effects: {
    begin(): Promise<void>;
    end(kind: 'fill' | 'drag' | 'click'): Promise<{ shows: boolean | null; said: string; taken?: boolean }>;
  };
  /** Whether an error ends the run rather than the step (a refused or unanswered approval). */
  endsRun(e: unknown): boolean;
  /** Wait for the page to settle (network idle, DOM quiet, bounded), as act does before it reads the page. */
  settle(): Promise<void>;
  /** Run one act step through the agent's step machinery (streamed, recorded); its result text, "error: ..." on failure. */
  act(say: string, reasoning: string, pageText: string, pageUrl: string): Promise<string>;
  /** Record a click the run made itself (a suggestion picked, a tab opened), streamed and replayable like an act step. */
  note(instruction: string, reasoning: string, result: string, pageUrl: string, action: Action | null): void;
}
