/**
 * A delaying TCP proxy for benchmarks: puts a fixed one-way latency between a client and a
 * server on this machine (e.g. a CDP WebSocket), so a round trip costs 2 × oneWayMs more.
 * Every chunk, in each direction, is delivered oneWayMs after it arrived, in order. The
 * bandwidth is not limited; a slow reader pauses the writer's socket (backpressure).
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface DelayProxy {
  /** The port it listens on, at 127.0.0.1. */
  port: number;
  /** Stop listening and drop every connection. */
  close(): Promise<void>;
}

/** Queue src's chunks and write each to dst oneWayMs after it arrived; end dst after the last one when src ends. */
function pipeDelayed(src: Socket, dst: Socket, oneWayMs: number): void {
  const queue: { due: number; chunk: Buffer | null }[] = []; // chunk null: src ended
  let timer: NodeJS.Timeout | null = null;
  let waitingDrain = false;
  const flush = (): void => {
    timer = null;
    const now = performance.now();
    while (queue.length && queue[0].due <= now) {
      const { chunk } = queue.shift()!;
      if (dst.destroyed) return;
      if (chunk === null) {
        dst.end();
        return;
      }
      if (!dst.write(chunk) && !waitingDrain) {
        waitingDrain = true;
        src.pause();
        dst.once('drain', () => {
          waitingDrain = false;
          src.resume();
        });
      }
    }
    schedule();
  };
  const schedule = (): void => {
    if (timer || !queue.length) return;
    timer = setTimeout(flush, Math.max(0, queue[0].due - performance.now()));
  };
  const push = (chunk: Buffer | null): void => {
    queue.push({ due: performance.now() + oneWayMs, chunk });
    schedule();
  };
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    push(null);
  };
  src.on('data', (chunk: Buffer) => push(chunk));
  // An abrupt close (an error, a reset) ends the other side too, after what was already queued.
  src.on('end', end);
  src.on('close', end);
}

export function startDelayProxy(opts: { target: { host: string; port: number }; oneWayMs: number }): Promise<DelayProxy> {
  const { target, oneWayMs } = opts;
  if (!(oneWayMs >= 0)) throw new Error(`oneWayMs must be 0 or more, got ${oneWayMs}`);
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const server = createServer({ noDelay: true }, (client) => {
    track(client);
    client.pause();
    const upstream = createConnection({ host: target.host, port: target.port, noDelay: true });
    track(upstream);
    const kill = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', kill);
    upstream.on('error', kill);
    upstream.once('connect', () => {
      pipeDelayed(client, upstream, oneWayMs);
      pipeDelayed(upstream, client, oneWayMs);
      client.resume();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') return reject(new Error('the proxy has no port'));
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
