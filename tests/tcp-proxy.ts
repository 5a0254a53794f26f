import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy in front of PostgreSQL whose line can be cut: `cut()` ends
 * every open connection and refuses new ones (as a database that went away),
 * `restore()` lets them through again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  let cut = false;
  // Stalled: connections are taken and held, never answered (a network that drops packets).
  let stalled = false;
  const held = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    if (stalled) {
      held.add(client);
      client.on("error", () => {}).on("close", () => held.delete(client));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    /** Ends open connections; new ones are accepted and never answered. */
    stall() {
      stalled = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      cut = false;
      stalled = false;
      for (const socket of held) socket.destroy();
    },
    close() {
      cut = true;
      for (const socket of [...open, ...held]) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same database URL, through the proxy's port. */
export function throughProxy(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  return u.toString();
}
