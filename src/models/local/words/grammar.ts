/**
 * How the word tables are read. A table is a list of phrases; a phrase is written as a small
 * pattern of its own: words, `s?` or `(es)?` for a plural, ` ?` where the space may be left
 * out ("check ?box" is "checkbox" and "check box"), `(?:a|b)` for a choice inside a phrase.
 * The readers (plan/, act.ts, agent/, refs.ts) put phrases together with these helpers,
 * so a family grows by adding a line to its table, never by editing an expression.
 */

/** A list of phrases; `readonly` so a reader can never change a table another reads. */
export type Phrases = readonly string[];

/** The phrases as one choice, for use inside a larger expression. */
export const either = (table: Phrases): string => table.join('|');

/** Any phrase of the table as whole words anywhere in a text. */
export const anyOf = (table: Phrases, flags = 'i'): RegExp => new RegExp(`\\b(?:${either(table)})\\b`, flags);

/** A text that is exactly one phrase of the table. */
export const oneOf = (table: Phrases, flags = 'i'): RegExp => new RegExp(`^(?:${either(table)})$`, flags);

/** A text that begins with a phrase of the table, then a space and the rest (captured). */
export const leading = (table: Phrases, flags = 'i'): RegExp => new RegExp(`^(?:${either(table)}) (.+)$`, flags);
