/**
 * Echoes of a caller's text in messages and results are bounded: a 60 KB instruction is quoted
 * by its start, never sent back whole (into a model's context, a log, an HTTP answer).
 */
export const ECHO_MAX = 160;

/** The text, cut at `max` characters with an ellipsis. */
export function clip(text: string, max = ECHO_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The text in double quotes, cut at `max` characters. */
export function quote(text: string, max = ECHO_MAX): string {
  return `"${clip(text, max)}"`;
}

/** Conservative token estimate (real tokenizers give ~3.5-4 chars per token on snapshot text); a snapshot's budget counts with it. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 3);
