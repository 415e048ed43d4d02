/**
 * MCP soak on loopback: SOAK_SESSIONS MCP sessions (default 500) opened by SOAK_CLIENTS
 * parallel clients (default 8) with the SDK's client over Streamable HTTP, each listing the
 * tools and then abandoned without DELETE; every SOAK_BROWSER_EVERY-th (default 25th) also
 * navigates, so a browser is launched and abandoned with it. Reports the service's memory,
 * open MCP sessions, browser sessions and Chromium processes before, at the peak and after
 * the idle timeout has reaped them. `node --expose-gc --import tsx bench/mcp-soak.ts`.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startService } from '../src/server/service';
import { startFixtureServers } from '../test/fixtures/server';

const SESSIONS = Number(process.env.SOAK_SESSIONS ?? 500);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const BROWSER_EVERY = Number(process.env.SOAK_BROWSER_EVERY ?? 25);
const IDLE_MS = Number(process.env.SOAK_IDLE_MS ?? 5000);
const KEY = 'soak-key';

const chromiums = () => Number(execSync("pgrep -c -f 'chromium.*deckhand-profile' || true").toString().trim() || 0);
/** After a full collection: RSS (which V8 seldom gives back) and the live heap (which shows a leak). */
const memory = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rssMb: Math.round(m.rss / 1e6), heapUsedMb: Math.round(m.heapUsed / 1e6) };
};

async function main(): Promise<void> {
  process.env.DECKHAND_API_KEYS = KEY;
  const servers = await startFixtureServers();
  const svc = await startService({ home: mkdtempSync(join(tmpdir(), 'dh-soak-')), port: 0, maxSessions: 4, idleTimeoutMs: IDLE_MS });
  const mcpOpen = () => svc.mcpSessions();
  const snapshot = () => ({ ...memory(), mcpSessions: mcpOpen(), browserSessions: svc.sessions.size, chromiumProcesses: chromiums() });
  const before = snapshot();
  let peak = { ...before };
  let opened = 0;
  let failures = 0;
  let refused = 0;
  // Sampled on a timer, so measuring does not slow the clients down.
  const sampler = setInterval(() => {
    const now = {
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
      mcpSessions: mcpOpen(),
      browserSessions: svc.sessions.size,
      chromiumProcesses: chromiums(),
    };
    peak = {
      rssMb: Math.max(peak.rssMb, now.rssMb),
      heapUsedMb: Math.max(peak.heapUsedMb, now.heapUsedMb),
      mcpSessions: Math.max(peak.mcpSessions, now.mcpSessions),
      browserSessions: Math.max(peak.browserSessions, now.browserSessions),
      chromiumProcesses: Math.max(peak.chromiumProcesses, now.chromiumProcesses),
    };
  }, 500);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < SESSIONS; i = next++) {
        const c = new Client({ name: `soak-${i}`, version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } });
        try {
          await c.connect(transport);
          opened++;
          await c.listTools();
          if (i % BROWSER_EVERY === 0) {
            const r = (await c.callTool({ name: 'navigate', arguments: { url: `${servers.origin}/form.html` } })) as {
              isError?: boolean;
              content: { text: string }[];
            };
            if (r.isError) {
              if (/TOO_MANY_SESSIONS/.test(r.content[0]?.text ?? '')) refused++;
              else {
                failures++;
                if (failures <= 3) console.error(`session ${i}: ${r.content[0]?.text}`);
              }
            }
          }
        } catch (e) {
          failures++;
          if (failures <= 3) console.error(`session ${i}: ${(e as Error).message}`);
        }
        // Abandoned: the client drops its connections and never sends DELETE.
        await transport.close().catch(() => undefined);
      }
    }),
  );
  clearInterval(sampler);
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  while ((mcpOpen() > 0 || svc.sessions.size > 0 || chromiums() > before.chromiumProcesses) && performance.now() - t1 < 60_000)
    await new Promise((r) => setTimeout(r, 250));
  const reapMs = performance.now() - t1;
  const after = snapshot();
  await svc.close();
  await servers.close();
  console.log(
    JSON.stringify(
      {
        sessions: SESSIONS,
        clients: CLIENTS,
        opened,
        failures,
        refusedAtLimit: refused,
        openSeconds: +(openMs / 1000).toFixed(1),
        reapedSecondsAfterLast: +(reapMs / 1000).toFixed(1),
        idleTimeoutMs: IDLE_MS,
        before,
        peak,
        after,
      },
      null,
      2,
    ),
  );
  if (after.mcpSessions || after.browserSessions || after.chromiumProcesses > before.chromiumProcesses) process.exitCode = 1;
}

void main();
