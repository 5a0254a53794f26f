/**
 * Reading a `Host` (or `X-Forwarded-Host`) header without a regular
 * expression: every visitor shares one thread, and a pattern that
 * backtracks on a long hostile header would stop them all. One pass over
 * the characters, whatever the input.
 */

export interface Host {
  /** The name, an IPv4 address or a bracketed IPv6 address, lower case. */
  name: string;
  /** 1–65535, or null when none was given. */
  port: number | null;
}

// Longest DNS name (253) with a port (":65535") and some room for brackets.
const MAX_HOST_LENGTH = 261;

const isLabelChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || // a-z
  (c >= 0x30 && c <= 0x39) || // 0-9
  c === 0x2d || // -
  c === 0x5f; // _ (container and service names use it)

const isIpv6Char = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || c === 0x3a || c === 0x2e;

/** A host name of dot-separated labels (1–63 characters each), one optional trailing dot. */
function isName(name: string): boolean {
  if (name.length === 0 || name.length > 254) return false;
  let label = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0x2e) {
      if (label === 0) return false;
      label = 0;
    } else if (isLabelChar(c)) {
      if (++label > 63) return false;
    } else {
      return false;
    }
  }
  return true;
}

function isBracketedIpv6(name: string): boolean {
  if (name.length < 4 || name.length > 47 || name[0] !== "[" || name[name.length - 1] !== "]") return false;
  for (let i = 1; i < name.length - 1; i++) if (!isIpv6Char(name.charCodeAt(i))) return false;
  return true;
}

function parsePort(text: string): number | null | undefined {
  if (text.length === 0 || text.length > 5) return undefined;
  let port = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
    port = port * 10 + (c - 0x30);
  }
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** The host a browser could have sent, or null for anything else (a bad port, stray characters, too long). */
export function parseHost(value: string | undefined): Host | null {
  if (!value || value.length > MAX_HOST_LENGTH) return null;
  const lower = value.toLowerCase();
  const close = lower.lastIndexOf("]");
  const colon = lower.lastIndexOf(":");
  // A colon after the closing bracket (or anywhere, for a name) starts the port.
  const portAt = colon > close ? colon : -1;
  const name = portAt === -1 ? lower : lower.slice(0, portAt);
  let port: number | null = null;
  if (portAt !== -1) {
    const parsed = parsePort(lower.slice(portAt + 1));
    if (parsed === undefined) return null;
    port = parsed;
  }
  if (name.startsWith("[") ? !isBracketedIpv6(name) : !isName(name)) return null;
  return { name, port };
}

/** The first entry of a comma-separated header (X-Forwarded-Host may list several proxies). */
export function firstEntry(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const comma = text.indexOf(",");
  return (comma === -1 ? text : text.slice(0, comma)).trim();
}
