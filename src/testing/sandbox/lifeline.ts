import { randomUUID } from 'node:crypto';
import * as net from 'node:net';
import { join } from 'node:path';

/**
 * A Unix socket server the sandbox's fake agents connect to: its end closes when this process ends, however it ends
 * (the kernel closes every descriptor of a dead process), and every agent then exits. Nothing polls.
 */
export interface Lifeline {
  /** The socket address baked into the fake agents. */
  address: string;
  /** Closes the server and every agent's connection (each agent then exits). */
  close(): Promise<void>;
}

// Linux: an abstract socket (no file, no path-length limit, gone with the process). Elsewhere a socket file in the
// sandbox's tmp dir when its path fits the 104-byte limit of sockaddr_un; without one the agents are not tied.
function address(tmpDir: string): string | null {
  if (process.platform === 'linux') return `\0mam-sandbox-${process.pid}-${randomUUID()}`;
  const file = join(tmpDir, 'lifeline.sock');
  return Buffer.byteLength(file) < 100 ? file : null;
}

/** Opens a lifeline in `tmpDir` (or the abstract namespace); null where none can be opened. Never keeps this process alive. */
export async function openLifeline(tmpDir: string): Promise<Lifeline | null> {
  const at = address(tmpDir);
  if (at === null) return null;
  const held = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    held.add(socket);
    socket.unref();
    socket.on('error', () => undefined);
    socket.on('close', () => held.delete(socket));
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(at, () => resolve(true));
  });
  if (!listening) return null;
  server.unref();
  return {
    address: at,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of held) s.destroy();
        server.close(() => resolve());
      }),
  };
}
