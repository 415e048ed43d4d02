/**
 * The sessions' registry replicas share (PostgreSQL): which sessions exist, whose they are, how
 * any replica reaches their browser, and who runs an operation on each right now (a lease that
 * expires, so a replica that died holds nothing for long). A service alone keeps its sessions
 * in memory and uses none.
 */
import type { StartSessionRequest } from '../protocol/http';
import type { ApprovalDecision, ApprovalRequest } from '../protocol/approval';

export interface SessionRecord {
  id: string;
  /** The tenant (a digest of the API key) that started it. */
  owner: string;
  /** The replica that started it. */
  replica: string;
  /**
   * How another replica reaches the browser: a Grid session, or a DevTools address a caller gave;
   * null when only its replica can (a browser it launched on its own machine).
   */
  browser: { grid?: { url: string; sessionId: string }; cdpUrl: string; cdpHeaders?: Record<string, string> } | null;
  /** The options the session was started with, to make the same instance elsewhere (never a model key). */
  options: Pick<StartSessionRequest, 'model' | 'systemPrompt' | 'domSettleTimeoutMs' | 'selfHeal'>;
  /** The service that started it (the HTTP service or the MCP server): how a watching side panel names its driver. */
  via?: 'http' | 'mcp';
}

export type LeaseAnswer = 'ok' | 'busy' | 'gone';

export interface SessionRegistry {
  add(rec: SessionRecord): Promise<void>;
  find(id: string): Promise<SessionRecord | null>;
  /** Remove a session; true when this call removed it (so exactly one replica ends its browser). */
  remove(id: string): Promise<boolean>;
  /** Take the session's lease for `ms` (marking it used now): 'busy' while another holder's lease runs. */
  lease(id: string, holder: string, ms: number): Promise<LeaseAnswer>;
  /** Extend a held lease; false when the session is gone or the lease was lost. */
  renew(id: string, holder: string, ms: number): Promise<boolean>;
  release(id: string, holder: string): Promise<void>;
  /** Remove and return the sessions unused for `idleMs` whose lease is not running. */
  takeIdle(idleMs: number): Promise<SessionRecord[]>;
  /** The sessions whose browser nobody kept alive for `everyMs`, marked as kept now (one replica gets each). */
  takeKeepAlive(everyMs: number): Promise<SessionRecord[]>;
  /** Which of `ids` still exist. */
  existing(ids: string[]): Promise<Set<string>>;
  /** A step of a session's operation waits for approval on `replica`: listed and decided through any replica. */
  putApproval(sessionId: string, replica: string, req: ApprovalRequest): Promise<void>;
  /** The step no longer waits (decided, timed out or cancelled). */
  dropApproval(sessionId: string, id: string): Promise<void>;
  approvals(sessionId: string): Promise<ApprovalRequest[]>;
  /** Decide a waiting step for the replica that holds it; false when no step waits under that id. */
  decideApproval(sessionId: string, id: string, decision: ApprovalDecision): Promise<boolean>;
  /** Hand `decide` each decision taken elsewhere for a step `replica` holds, until the returned stop is called. */
  onApprovalDecided(replica: string, decide: (sessionId: string, id: string, decision: ApprovalDecision) => void): () => Promise<void>;
}
