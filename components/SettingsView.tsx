/** Model settings per provider (keys never shown back in full) and the local-client bridge. */
import { useEffect, useState, type FormEvent } from 'react';
import type { PanelClient } from '../src/panel/client';
import { loadPublicSettings, PROVIDERS, saveProviderSettings, selectProvider, type ProviderId, type PublicSettings } from '../src/panel/settings';
import { useBridgeStatus } from './BridgeChip';

export function SettingsView({ client }: { client: PanelClient }) {
  return (
    <div className="settings">
      <ModelSettings />
      <ConnectClient client={client} />
    </div>
  );
}

function ModelSettings() {
  const [settings, setSettings] = useState<PublicSettings | null>(null);
  const [provider, setProvider] = useState<ProviderId>('local');
  const [form, setForm] = useState({ modelName: '', apiKey: '', baseURL: '' });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    void loadPublicSettings().then((s) => {
      setSettings(s);
      pick(s.provider, s);
    });
  }, []);

  const pick = (id: ProviderId, s = settings) => {
    setProvider(id);
    const p = s?.providers[id];
    // The key field always starts empty: a saved key is never put back into the page.
    setForm({ modelName: p?.modelName ?? '', apiKey: '', baseURL: p?.baseURL ?? '' });
    setMessage(null);
  };
  const meta = PROVIDERS.find((p) => p.id === provider)!;
  const saved = settings?.providers[provider];

  const save = async (e: FormEvent, clearKey = false) => {
    e.preventDefault();
    try {
      const s = provider === 'local' ? await selectProvider('local') : await saveProviderSettings(provider, { ...form, clearKey });
      setSettings(s);
      setForm((f) => ({ ...f, apiKey: '' }));
      setMessage({ ok: true, text: provider === 'local' ? 'Using the built-in model.' : `Saved. Runs now use ${meta.label}.` });
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };

  return (
    <form className="card" onSubmit={(e) => void save(e)} data-testid="model-settings">
      <h2>Model</h2>
      <label>
        Provider
        <select value={provider} onChange={(e) => pick(e.target.value as ProviderId)} data-testid="provider">
          {PROVIDERS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
              {settings?.provider === p.id ? ' (in use)' : ''}
            </option>
          ))}
        </select>
      </label>
      {provider === 'local' ? (
        <p className="muted small">
          Runs in the browser with no network and no key. It handles one clear step at a time, and the agent splits a task of several plain steps into them;
          open-ended tasks need a provider model.
        </p>
      ) : (
        <>
          <label>
            Model name
            <input
              value={form.modelName}
              placeholder={meta.defaultModel || 'model name'}
              onChange={(e) => setForm({ ...form, modelName: e.target.value })}
              data-testid="model-name"
            />
          </label>
          <label>
            API key
            <input
              type="password"
              autoComplete="off"
              value={form.apiKey}
              placeholder={saved?.keyHint ? `saved key ${saved.keyHint} (type to replace)` : meta.needsKey ? 'required' : 'optional'}
              onChange={(e) => setForm({ ...form, apiKey: e.target.value })}
              data-testid="api-key"
            />
          </label>
          <label>
            {/* One span: the label lays its children out in a column. */}
            <span>Base URL {provider !== 'openai-compatible' && <span className="muted">(optional)</span>}</span>
            <input
              value={form.baseURL}
              placeholder={provider === 'openai-compatible' ? 'http://127.0.0.1:8000/v1' : 'provider default'}
              onChange={(e) => setForm({ ...form, baseURL: e.target.value })}
              data-testid="base-url"
            />
          </label>
          <p className="muted small">Kept in this browser's local extension storage, never synced, never sent to web pages.</p>
        </>
      )}
      <div className="actions">
        <button className="primary" type="submit" data-testid="save-settings">
          {provider === 'local' ? 'Use the built-in model' : 'Save and use'}
        </button>
        {saved?.keyHint && (
          <button type="button" className="quiet" onClick={(e) => void save(e, true)}>
            Forget key
          </button>
        )}
      </div>
      {message && (
        <p className={message.ok ? 'ok small' : 'error small'} role="status" data-testid="settings-message">
          {message.text}
        </p>
      )}
    </form>
  );
}

function ConnectClient({ client }: { client: PanelClient }) {
  const status = useBridgeStatus(client);
  const [port, setPort] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const live = status && (status.state === 'attached' || status.state === 'connecting' || status.state === 'reconnecting');

  const connect = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setPending(true);
    try {
      const s = await client.panel('bridge.connect', { port: Number(port), token: token.trim() });
      if (s.state === 'refused' || s.state === 'error') setError(s.message ?? `the connection was ${s.state}`);
      else setToken('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="card" onSubmit={(e) => void connect(e)} data-testid="connect">
      <h2>Connect to a local client</h2>
      <p className="muted small">
        A program on this computer (<code>localBrowser.attach()</code>) prints a port and a one-time token. Enter them to let it drive this browser; it can
        reach only 127.0.0.1.
      </p>
      {status && status.state !== 'off' && (
        <p
          className={status.state === 'attached' ? 'ok small' : status.state === 'refused' || status.state === 'error' ? 'error small' : 'small'}
          role="status"
          data-testid="bridge-status"
          data-state={status.state}
        >
          {status.state === 'attached' ? 'Attached' : status.state[0].toUpperCase() + status.state.slice(1)}
          {status.port ? ` · port ${status.port}` : ''}
          {status.message ? ` · ${status.message}` : ''}
        </p>
      )}
      {live ? (
        <div className="actions">
          <button type="button" className="danger" onClick={() => void client.panel('bridge.disconnect', {})} data-testid="bridge-disconnect">
            Disconnect
          </button>
        </div>
      ) : (
        <>
          <div className="row2">
            <label>
              Port
              <input
                inputMode="numeric"
                value={port}
                onChange={(e) => setPort(e.target.value.replace(/\D/g, ''))}
                placeholder="9333"
                data-testid="bridge-port"
              />
            </label>
            <label>
              Token
              <input value={token} autoComplete="off" spellCheck={false} onChange={(e) => setToken(e.target.value)} data-testid="bridge-token" />
            </label>
          </div>
          <div className="actions">
            <button className="primary" type="submit" disabled={pending || !port || !token.trim()} data-testid="bridge-connect">
              {pending ? 'Connecting…' : 'Connect'}
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="error small" role="alert" data-testid="bridge-error">
          {error}
        </p>
      )}
    </form>
  );
}
