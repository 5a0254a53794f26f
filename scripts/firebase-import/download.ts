// Downloading an image of the old site, within the upload limit and a timeout,
// from the old site's file host only: an export file is data from elsewhere,
// and whatever it points at is stored and published.
import dns from "node:dns";
import net from "node:net";
import { Agent, fetch } from "undici";
import { readCapped } from "~/services/streams.server";
import { IMAGE_MESSAGES, ImageRejected, MAX_UPLOAD_BYTES } from "~/services/images.server";
import { EXTERNAL_IMAGE_ORIGINS } from "~/lib/image-variants";

class DownloadFailed extends Error {}

/** Where downloads may go. */
export interface DownloadSources {
  /** Origins allowed beside the old site's file host; their addresses are checked like its. */
  extraOrigins?: readonly string[];
  /** Origins of a local copy of the files (tests, trials), allowed on private and loopback addresses. */
  localOrigins?: readonly string[];
}

/** At most this many redirects per image, each checked like the first address. */
const MAX_REDIRECTS = 3;

// Loopback, private, link-local, shared, multicast and reserved ranges: an
// address there is this machine or its network, never the old site's host.
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(address, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]);
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6") || /^::ffff:/i.test(address);
  return true;
}

class PrivateAddress extends Error {
  constructor(address: string) {
    super(`adres prywatny lub lokalny (${address}): nie pobrano`);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

// The addresses checked are the ones connected to (no second resolution a
// DNS answer could change in between).
function checkedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(new PrivateAddress(refused.address), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

const publicOnly = new Agent({ connect: { lookup: checkedLookup as never } });
const anyAddress = new Agent();

function dispatcherFor(url: URL, sources: DownloadSources, redirected: boolean) {
  const origin = url.origin;
  if (sources.localOrigins?.includes(origin)) return anyAddress;
  const allowed = [...EXTERNAL_IMAGE_ORIGINS, ...(sources.extraOrigins ?? [])];
  if (!allowed.includes(origin)) {
    const outside = `adres spoza ${EXTERNAL_IMAGE_ORIGINS.join(", ")}`;
    throw new DownloadFailed(
      redirected ? `przekierowanie na ${outside} (${origin}): nie pobrano` : `${outside}: nie pobrano`,
    );
  }
  // An address written in the URL is connected to without a lookup.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && isPrivateAddress(host)) throw new PrivateAddress(host);
  return publicOnly;
}

/** Fetches a URL into memory, refusing more than the upload limit before it is all read. */
export async function fetchCapped(url: string, timeoutMs: number, sources: DownloadSources = {}): Promise<Buffer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    const dispatcher = dispatcherFor(target, sources, hop > 0);
    const res = await fetch(target, { signal, redirect: "manual", dispatcher });
    if ([301, 302, 303, 307, 308].includes(res.status)) {
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get("location");
      if (!location) throw new DownloadFailed(`HTTP ${res.status} bez adresu`);
      if (hop >= MAX_REDIRECTS) throw new DownloadFailed("zbyt wiele przekierowań");
      target = new URL(location, target);
      continue;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new DownloadFailed(`HTTP ${res.status}`);
    }
    if (Number(res.headers.get("content-length")) > MAX_UPLOAD_BYTES) {
      await res.body.cancel().catch(() => {});
      throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
    }
    const body = await readCapped(res.body as ReadableStream<Uint8Array>, MAX_UPLOAD_BYTES);
    if (!body) throw new DownloadFailed(IMAGE_MESSAGES.tooLarge);
    return body;
  }
}

/** Why an image could not be had, as the summary lists it. */
export function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof DownloadFailed || error instanceof ImageRejected || error instanceof PrivateAddress) {
    return error.message;
  }
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  if (e?.cause instanceof PrivateAddress) return e.cause.message;
  if (e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError") {
    return `brak odpowiedzi w ciągu ${Math.round(timeoutMs / 1000)} s`;
  }
  if (e?.cause?.code) return `brak połączenia (${e.cause.code})`;
  return `błąd pobierania (${e?.message ?? String(error)})`;
}
