/**
 * The worker's end of the WebSocket bridge: dials out to a Node client on
 * 127.0.0.1 that a person paired from the side panel. (Interface only; being built.)
 */
import { DeckhandError, ErrorCode } from '../protocol/errors';
import type { BridgeStatus } from '../protocol/panel';

export const BRIDGE_ALARM = 'deckhand-bridge';

export interface BridgeTransportPeer {
  receive(raw: string): void;
  failAll(error: DeckhandError, permanently?: boolean): void;
}

export interface WorkerBridgeOptions {
  extensionId: string;
  version: string;
  /** Make an RPC peer that sends through `send` and answers the engine's methods. */
  serve: (send: (raw: string) => void) => BridgeTransportPeer;
  onStatus: (status: BridgeStatus) => void;
}

export class WorkerBridge {
  private current: BridgeStatus = { state: 'off', since: Date.now() };
  constructor(private readonly opts: WorkerBridgeOptions) {}
  status(): BridgeStatus {
    return this.current;
  }
  async connect(_port: number, _token: string): Promise<BridgeStatus> {
    throw new DeckhandError(ErrorCode.Unavailable, 'the bridge is not built yet');
  }
  async disconnect(): Promise<BridgeStatus> {
    return this.current;
  }
  /** After a worker start or an alarm: reconnect with a stored pairing, if any. */
  async resume(): Promise<void> {}
}
