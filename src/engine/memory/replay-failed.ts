/** A stored step could not be replayed; the caller decides what follows (compute live, run the agent live, report the step). */
export class ReplayFailed extends Error {}
