/** The local model's "not confident": a reason, never a guess. Its own file so every rule file can throw it. */
export class Refusal extends Error {}
