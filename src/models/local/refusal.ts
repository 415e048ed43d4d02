/** The local model's "not confident": a reason, never a guess. Its own file so every rule file can throw it. */
export class Refusal extends Error {}
/** Several elements fit the words equally: the page holds what was asked for more than once, so looking elsewhere would be a guess. */
export class Ambiguity extends Refusal {}
