/** Shows when a local Node client is attached over the bridge, with a way to cut it off. */
import { useEffect, useState } from 'react';
import type { BridgeStatus } from '../src/protocol/panel';
import type { PanelClient } from '../src/panel/client';

export function useBridgeStatus(client: PanelClient): BridgeStatus | null {
  const [status, setStatus] = useState<BridgeStatus | null>(null);
  useEffect(() => {
    const off = client.onBridge(setStatus);
    client.panel('bridge.status', {}).then(setStatus, () => undefined);
    return off;
  }, [client]);
  return status;
}

export function BridgeChip({ client, onOpenSettings }: { client: PanelClient; onOpenSettings: () => void }) {
  const status = useBridgeStatus(client);
  if (!status || status.state === 'off' || status.state === 'refused' || status.state === 'error') return null;
  const attached = status.state === 'attached';
  return (
    <div className={`chip ${attached ? 'ok' : 'warn'}`} data-testid="bridge-chip" title={status.message}>
      <button className="link" onClick={onOpenSettings}>
        {attached ? 'Client attached' : status.state === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
      </button>
      <button
        className="icon"
        aria-label="Disconnect the local client"
        title="Disconnect"
        onClick={() => void client.panel('bridge.disconnect', {})}
        data-testid="bridge-chip-disconnect"
      >
        ✕
      </button>
    </div>
  );
}
