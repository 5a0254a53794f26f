import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the server in front of Remix knows of a request and Remix does not
 * pass on (remix-serve gives loaders no load context): the client's address.
 * The front door (app/http/front-door.server.ts) runs every request inside
 * `requestContext.run()`; loaders and actions read it with clientAddress().
 */
export interface RequestContext {
  /** The socket's peer, or with TRUST_PROXY the address our proxy put last in X-Forwarded-For. */
  clientAddress: string;
  /** Set by the server's entry when the request met an unreachable database (read by the pastor area's door). */
  databaseUnavailable?: boolean;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The client address of the request being handled; null outside a request (tests calling a loader directly). */
export function clientAddress(): string | null {
  return requestContext.getStore()?.clientAddress ?? null;
}
